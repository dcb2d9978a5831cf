import type { QuotaAlert } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError, apiError } from '../../common/errors.js';
import { findQuotaAlert, saveQuotaAlert } from '../../db/repos/quota-alerts.js';
import type { UserRow } from '../../db/repos/users.js';

export async function getQuotaAlert(ctx: AppContext, user: UserRow): Promise<QuotaAlert> {
  const s = await findQuotaAlert(ctx.db, user.id);
  return { threshold: s?.threshold ?? 0, channel: (s?.channel ?? '') as QuotaAlert['channel'] };
}

/** An alert needs somewhere to go: a bound e-mail or a bound Telegram account. */
export async function setQuotaAlert(ctx: AppContext, user: UserRow, body: QuotaAlert): Promise<void> {
  if (body.channel === 'email' && !user.email) throw apiError(400, 'alert_email_missing');
  if (body.channel === 'telegram' && !user.telegram_id) throw apiError(400, 'alert_telegram_missing');
  await saveQuotaAlert(ctx.db, user.id, body);
}
