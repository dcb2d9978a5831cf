import { formatQuota } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { sendMail } from '../console/user/mail.js';
import { botOf } from '../bot/registry.js';
import { TEXTS, langOf } from '../bot/texts.js';
import { dueQuotaAlerts, markQuotaAlert, rearmQuotaAlerts, type DueQuotaAlert } from '../db/repos/quota-alerts.js';

const BATCH = 100;

/**
 * Users' own low-balance alerts (master node, every USER_ALERT_INTERVAL_SECONDS): a balance
 * below its threshold is told once, by e-mail or the bound Telegram; it is told again only after
 * the balance went back to the threshold or above. A failed send is retried on the next round.
 */
export function startQuotaAlerts(ctx: AppContext): void {
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      await checkQuotaAlerts(ctx);
    } catch (error) {
      ctx.log.warn(`quota alert round failed: ${(error as Error).message}`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), ctx.config.USER_ALERT_INTERVAL_SECONDS * 1000);
  timer.unref();
  ctx.onClose.push(() => clearInterval(timer));
}

export async function checkQuotaAlerts(ctx: AppContext): Promise<void> {
  await rearmQuotaAlerts(ctx.db);
  for (const due of await dueQuotaAlerts(ctx.db, BATCH)) {
    if (!(await markQuotaAlert(ctx.db, due.id, 1))) continue;
    try {
      await send(ctx, due);
    } catch (error) {
      await markQuotaAlert(ctx.db, due.id, 0);
      ctx.log.warn(`quota alert to user #${due.id} by ${due.channel} failed: ${(error as Error).message}`);
    }
  }
}

async function send(ctx: AppContext, due: DueQuotaAlert): Promise<void> {
  const t = TEXTS[langOf(ctx.config.LANGUAGE.replace('_', '-'))];
  const d = { quotaPerUnit: ctx.options.get('QuotaPerUnit'), displayInCurrency: ctx.options.get('DisplayInCurrencyEnabled') };
  const text = t.lowBalance(formatQuota(due.quota, d), formatQuota(due.threshold, d));
  if (due.channel === 'email') {
    if (!due.email) throw new Error('no e-mail bound');
    return sendMail(ctx, due.email, `${ctx.options.get('SystemName')}: ${text}`, `<p>${text}</p>`);
  }
  const bot = botOf(ctx);
  if (!due.telegram_id || !bot?.running()) throw new Error('no Telegram bound or the bot is not running');
  await bot.send(due.telegram_id, text);
}
