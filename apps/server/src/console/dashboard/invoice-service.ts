import type { InvoiceLine, InvoiceMonth, Page, PageQuery } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { paginate } from '../../db/paginate.js';
import { notifyAdmins } from '../../notify/index.js';
import { INVOICE_ORDER_COLUMNS, buildMonth, monthGenerated, userMonthLines, userMonthsQuery } from '../../db/repos/invoices.js';

/** First day of the month holding `day` and of the month after, both 'YYYY-MM-DD' (UTC, like the daily roll-up). */
export function monthBounds(day: string): { month: string; next: string } {
  const [y, m] = day.split('-').map(Number);
  const next = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  return { month: `${day.slice(0, 7)}-01`, next };
}

/** Sums come back as strings on PostgreSQL and MySQL. */
const numbers = <T extends InvoiceMonth>(row: T): T =>
  ({
    ...row,
    request_count: Number(row.request_count),
    quota: Number(row.quota),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    request_time: Number(row.request_time),
  });

export function userInvoices(ctx: AppContext, userId: number, q: PageQuery): Promise<Page<InvoiceMonth>> {
  return paginate(userMonthsQuery(ctx.db, userId), q, INVOICE_ORDER_COLUMNS, (r: InvoiceMonth) => numbers(r), '-date');
}

/** The bill lines of the month holding `day`; each line carries that month's first day (the original's value was unreliable). */
export async function userInvoiceDetail(ctx: AppContext, userId: number, day: string): Promise<InvoiceLine[]> {
  const rows = await userMonthLines(ctx.db, userId, monthBounds(day).month);
  return rows.map((r) => numbers(r as InvoiceLine));
}

/**
 * Bills the month holding `day` from the daily roll-up. `regenerate` rebuilds a month
 * already billed (the update route); otherwise a billed month is refused.
 */
export async function generateInvoices(ctx: AppContext, day: string, regenerate: boolean): Promise<number> {
  const { month, next } = monthBounds(day);
  const current = `${new Date().toISOString().slice(0, 7)}-01`;
  if (month >= current) throw apiError(400, 'invoice_month_invalid');
  if (!regenerate && (await monthGenerated(ctx.db, month))) throw apiError(409, 'invoice_generated');
  return buildMonth(ctx.db, month, next, nowSeconds());
}

/** Bills last month if nobody has yet; skipped months stay as they are. */
export async function billLastMonth(ctx: AppContext): Promise<void> {
  const now = new Date();
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  if (await monthGenerated(ctx.db, last)) return;
  const count = await generateInvoices(ctx, last, false);
  ctx.log.info({ month: last, rows: count }, 'monthly bills generated');
  notifyAdmins(ctx, { event: 'monthly_bills', title: `${last.slice(0, 7)} 月度账单已生成 (monthly bills generated)`, text: `${count} rows` });
}
