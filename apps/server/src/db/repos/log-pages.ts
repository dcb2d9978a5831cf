import { sql, type Selectable } from 'kysely';
import { LOG_COUNT_CAP, type LogListQuery, type PageQuery } from '@one-hub/contract';
import type { Db } from '../index.js';
import type { LogsTable } from '../schema.js';
import { parseOrder } from '../paginate.js';
import { LOG_ORDER_COLUMNS, logListQuery } from './logs.js';

export type LogRow = Selectable<LogsTable> & { channel_name: string | null };

export interface LogPageRows {
  rows: LogRow[];
  /** Matching rows, counted up to LOG_COUNT_CAP. */
  total: number;
  capped: boolean;
  nextCursor?: string;
}

/** Orders a page can continue by keyset: one of these, with `id` breaking ties the same way. */
const KEYSET_COLUMNS = ['created_at', 'quota', 'id'];

type Order = Array<[string, 'asc' | 'desc']>;

/** The order with `id` appended (same direction as the last column) so ties have one order and pages never overlap. */
export function logOrder(text: string): Order {
  const order = parseOrder(text, LOG_ORDER_COLUMNS, '-id');
  if (!order.some(([c]) => c === 'id')) order.push(['id', order[order.length - 1][1]]);
  return order;
}

/** The column a keyset cursor follows, when the order allows one (`-created_at`, `quota`, `-id`…). */
function keysetColumn(order: Order): string | undefined {
  const [first, second] = order;
  if (order.length === 1) return first[0] === 'id' ? 'id' : undefined;
  if (order.length === 2 && second[0] === 'id' && second[1] === first[1] && KEYSET_COLUMNS.includes(first[0])) return first[0];
  return undefined;
}

/** The two statements of a log page: the capped count and the page's rows (exposed for the query-plan tests). */
export function logPageQueries(db: Db, f: LogListQuery, q: PageQuery, userId?: number) {
  const order = logOrder(q.order);
  const filtered = logListQuery(db, f, userId);
  const count = db.selectFrom(filtered.select(sql.lit(1).as('one')).limit(LOG_COUNT_CAP + 1).as('capped')).select((eb) => eb.fn.countAll().as('n'));
  const keyset = keysetColumn(order);
  const dir = order[0][1];
  let rows = filtered.leftJoin('channels', 'channels.id', 'logs.channel_id').selectAll('logs').select('channels.name as channel_name');
  if (keyset && f.cursor) {
    const [value, id] = f.cursor.split('_').map(Number);
    const col = `logs.${keyset}` as 'logs.created_at';
    const past = dir === 'desc' ? '<' : '>';
    rows =
      keyset === 'id'
        ? rows.where('logs.id', past, id)
        : rows.where(col, dir === 'desc' ? '<=' : '>=', value).where((eb) => eb.or([eb(col, past, value), eb('logs.id', past, id)]));
  } else {
    rows = rows.offset((q.page - 1) * q.size);
  }
  for (const [column, d] of order) rows = rows.orderBy(`logs.${column}` as 'logs.id', d);
  return { count, rows: rows.limit(q.size), keyset };
}

/**
 * One page of the log list: rows (with their channel's name) by offset or, with `f.cursor`, after the
 * cursor's row; the count runs on the log table alone and stops at LOG_COUNT_CAP + 1 rows.
 */
export async function pageLogs(db: Db, f: LogListQuery, q: PageQuery, userId?: number): Promise<LogPageRows> {
  const { count, rows, keyset } = logPageQueries(db, f, q, userId);
  const [counted, page] = await Promise.all([count.executeTakeFirst(), rows.execute() as Promise<LogRow[]>]);
  const n = Number(counted?.n ?? 0);
  const last = page[page.length - 1];
  const nextCursor = keyset && last && page.length === q.size ? `${last[keyset as 'id']}_${last.id}` : undefined;
  return { rows: page, total: Math.min(n, LOG_COUNT_CAP), capped: n > LOG_COUNT_CAP, nextCursor };
}
