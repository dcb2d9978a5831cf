import type { Insertable } from 'kysely';
import type { Db } from '../db/index.js';
import type { OrdersTable } from '../db/schema.js';
import type { Source } from './source.js';
import type { TableCount } from './copy.js';
import { sameValue } from './tables.js';

type Row = Record<string, unknown>;
type OrderValues = Insertable<OrdersTable> & { trade_no: string };

/** Our `orders.trade_no` is varchar(50); new-api allows 255. */
const TRADE_NO_MAX = 50;

/** new-api's statuses (common.TopUpStatus*) as ours (api.md §2.8); anything else is a failed order with the reason. */
const STATUS: Record<string, string> = { pending: 'pending', success: 'success', failed: 'failed', expired: 'closed' };

/** new-api's payment providers that are not an Epay aggregator (older rows have no payment_provider: the method tells). */
const NON_EPAY = new Set(['stripe', 'creem', 'waffo', 'waffo_pancake', 'balance']);

const num = (v: unknown) => (Number.isFinite(Number(v)) ? Number(v) : 0);
const cents = (x: number) => Math.round(x * 100) / 100;

/**
 * One new-api top-up as our order, history only. What new-api credited on success
 * (model/topup.go): Epay-style providers `amount` dollars × QuotaPerUnit (`money` is what the
 * buyer paid, in yuan at the option Price); Stripe `money` dollars × QuotaPerUnit (`money` is the
 * amount times the top-up group ratio, the charge itself is not recorded); Creem `amount` quota
 * as it is. Our `quota` is that credit, `amount` the whole dollars it makes, `order_amount` new-api's
 * `money`. `gateway_id` 0 names no gateway here, so no payment notice can ever complete the order.
 */
export function orderFromTopUp(r: Row, quotaPerUnit: number): OrderValues {
  const provider = String(r.payment_provider || r.payment_method || '').toLowerCase();
  const kind = NON_EPAY.has(provider) ? provider : 'epay';
  const amount = num(r.amount);
  const money = num(r.money);
  const quota = Math.round(kind === 'stripe' ? money * quotaPerUnit : kind === 'creem' ? amount : amount * quotaPerUnit);
  const status = String(r.status ?? '');
  const created = num(r.create_time);
  return {
    user_id: num(r.user_id),
    gateway_id: 0,
    trade_no: String(r.trade_no ?? ''),
    gateway_no: '',
    amount: Math.round(quota / quotaPerUnit),
    order_amount: cents(money),
    order_currency: kind === 'epay' ? 'CNY' : 'USD',
    quota,
    fee: 0,
    discount: 0,
    status: STATUS[status] ?? 'failed',
    fail_reason: STATUS[status] ? '' : `new-api status: ${status}`.slice(0, 255),
    created_at: created,
    updated_at: num(r.complete_time) || created,
  };
}

const COMPARED = ['user_id', 'gateway_id', 'amount', 'order_amount', 'order_currency', 'quota', 'status', 'fail_reason', 'created_at', 'updated_at'] as const;

/**
 * new-api's `top_ups` become orders, matched by trade number so a second run copies nothing
 * twice. Only the orders table is written: balances were copied with the users and are never
 * credited again. An order of this install that already has the trade number (it has a gateway)
 * is left alone and reported, as is a trade number too long for ours.
 */
export async function copyTopUps(src: Source, options: Map<string, string>, target: Db, dryRun: boolean, batch: number): Promise<TableCount | undefined> {
  if (!src.tables().includes('top_ups')) return undefined;
  const quotaPerUnit = Number(options.get('QuotaPerUnit')) > 0 ? Number(options.get('QuotaPerUnit')) : 500_000;
  const count: TableCount = { table: 'orders (from top_ups)', read: 0, inserted: 0, updated: 0, unchanged: 0, skipped: 0, unmapped: [], rejected: [] };
  let after: number | undefined;
  for (;;) {
    const rows = await src.page('top_ups', 'id', after, batch);
    if (!rows.length) break;
    after = Number(rows[rows.length - 1].id);
    count.read += rows.length;
    const orders: OrderValues[] = [];
    for (const r of rows) {
      const order = orderFromTopUp(r, quotaPerUnit);
      if (!order.trade_no || order.trade_no.length > TRADE_NO_MAX) count.rejected!.push(`top-up ${String(r.id)}: trade_no empty or longer than ${TRADE_NO_MAX}`);
      else orders.push(order);
    }
    const existing = orders.length ? await target.selectFrom('orders').selectAll().where('trade_no', 'in', orders.map((o) => o.trade_no)).execute() : [];
    const byTradeNo = new Map(existing.map((o) => [o.trade_no, o]));
    const inserts: OrderValues[] = [];
    const updates: OrderValues[] = [];
    for (const o of orders) {
      const old = byTradeNo.get(o.trade_no);
      if (!old) inserts.push(o);
      else if (Number(old.gateway_id) !== 0 || Number(old.plan_id) !== 0) count.rejected!.push(`${o.trade_no}: an order of this install has that trade number`);
      else if (COMPARED.some((c) => !sameValue(old[c], o[c]))) updates.push(o);
      else count.unchanged++;
    }
    count.inserted += inserts.length;
    count.updated += updates.length;
    if (!dryRun && (inserts.length || updates.length)) {
      await target.transaction().execute(async (trx) => {
        if (inserts.length) await trx.insertInto('orders').values(inserts).execute();
        for (const u of updates) await trx.updateTable('orders').set(u).where('trade_no', '=', u.trade_no).where('gateway_id', '=', 0).execute();
      });
    }
  }
  return count;
}
