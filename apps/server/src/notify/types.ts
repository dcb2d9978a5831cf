/** Events the administrators are told about (api.md §5 notify.*). */
export type NoticeEvent = 'channel_disabled' | 'channel_enabled' | 'channel_balance_low' | 'payment_notify_failed' | 'monthly_bills' | 'job_notice';

export interface Notice {
  event: NoticeEvent;
  title: string;
  text: string;
}

/** One place notices go; `send` throws when the target did not accept the message. */
export interface Target {
  name: string;
  send(notice: Notice): Promise<void>;
}
