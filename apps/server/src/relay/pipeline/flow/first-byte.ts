import type { FastifyReply } from 'fastify';
import { LOG_TYPE, LOG_MESSAGES, logMessage } from '@one-hub/contract';
import { HubError } from '../../../common/errors.js';
import { messageFields, requestLogFields } from '../accounting/settle.js';
import type { RelayState } from '../relay-state.js';
import type { Prepared } from './prepare.js';

export const CLIENT_LEFT = LOG_MESSAGES.client_left;

/** Milliseconds per second of FirstByteTimeoutSeconds; tests shrink it to wait for fractions of a second. */
export const firstByteTiming = { secondMs: 1_000 };

/**
 * Watches one upstream attempt until upstream's first byte (headers or body): after
 * `FirstByteTimeoutSeconds` it cancels the attempt with a retryable 504, so it fails
 * over like a 5xx; when the client goes away first it cancels it with a 499, which
 * ends the request. The sender says how to cancel (`onCancel`) and reports the first
 * body byte (`stop`).
 */
export class FirstByteWatch {
  /** Why the attempt was cancelled, once it was. */
  reason: HubError | undefined;
  private cancel: ((reason: HubError) => void) | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly onClose = () => this.fire(new HubError(499, CLIENT_LEFT, { code: 'client_closed' }));

  constructor(
    private readonly reply: FastifyReply,
    timeoutSeconds: number,
  ) {
    if (reply.raw.destroyed) {
      this.reason = new HubError(499, CLIENT_LEFT, { code: 'client_closed' });
      return;
    }
    reply.raw.once('close', this.onClose);
    if (timeoutSeconds > 0) this.timer = setTimeout(() => this.fire(firstByteTimeout(timeoutSeconds)), timeoutSeconds * firstByteTiming.secondMs);
  }

  /** Registers how to cancel the request; a reason already known cancels it at once. */
  onCancel(cancel: (reason: HubError) => void): void {
    this.cancel = cancel;
    if (this.reason) cancel(this.reason);
  }

  /** The first byte arrived or the attempt is over: nothing left to watch. */
  stop(): void {
    clearTimeout(this.timer);
    this.reply.raw.off('close', this.onClose);
  }

  private fire(reason: HubError): void {
    if (this.reason) return;
    this.reason = reason;
    this.stop();
    this.cancel?.(reason);
  }
}

export function firstByteTimeout(seconds: number): HubError {
  return new HubError(504, `upstream sent nothing within ${seconds} s (FirstByteTimeoutSeconds)`, { type: 'upstream_error', code: 'first_byte_timeout', retryable: true });
}

/** The log row of a request whose client left before upstream's first byte: nothing billed. */
export function logClientLeft(state: RelayState, p: Prepared, channelId: number, requestId: string, ip: string): void {
  if (!state.ctx.options.get('LogConsumeEnabled')) return;
  state.recorder.log({
    type: LOG_TYPE.consume,
    ...requestLogFields(p, requestId, ip),
    channel_id: channelId,
    model_name: p.model,
    quota: 0,
    ...messageFields(logMessage('client_left')),
  });
}
