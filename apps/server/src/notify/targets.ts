import type { AppContext } from '../app-context.js';
import { findRootUser } from '../db/repos/users.js';
import type { Target } from './types.js';
import { emailTarget } from './email/index.js';
import { telegramTarget } from './telegram/index.js';
import { dingTalkTarget } from './dingtalk/index.js';
import { larkTarget } from './lark/index.js';
import { weComTarget } from './wecom/index.js';
import { pushDeerTarget } from './pushdeer/index.js';
import { webhookTarget } from './webhook/index.js';

/** The configured targets (the only file naming them); each is on when its address is set. */
export function configuredTargets(ctx: AppContext): Target[] {
  const c = ctx.config;
  const list: Target[] = [];
  // E-mail follows the original: on unless disabled, and only once SMTP is set up.
  if (!c.NOTIFY_EMAIL_DISABLE && ctx.options.get('SMTPServer')) {
    list.push(emailTarget(ctx, async () => (await findRootUser(ctx.db))?.email ?? ''));
  }
  if (c.NOTIFY_TELEGRAM_BOT_API_KEY && c.NOTIFY_TELEGRAM_CHAT_ID) list.push(telegramTarget(c));
  if (c.NOTIFY_DINGTALK_TOKEN && (c.NOTIFY_DINGTALK_SECRET || c.NOTIFY_DINGTALK_KEYWORD)) list.push(dingTalkTarget(c));
  if (c.NOTIFY_LARK_TOKEN && (c.NOTIFY_LARK_SECRET || c.NOTIFY_LARK_KEYWORD)) list.push(larkTarget(c));
  if (!c.NOTIFY_WECOM_DISABLE && c.NOTIFY_WECOM_WEBHOOK) list.push(weComTarget(c));
  if (c.NOTIFY_PUSHDEER_URL && c.NOTIFY_PUSHDEER_PUSHKEY) list.push(pushDeerTarget(c));
  if (c.NOTIFY_WEBHOOK_URL) list.push(webhookTarget(c));
  return list;
}
