import type { SelectQueryBuilder } from 'kysely';
import type { Page, PageQuery } from '@one-hub/contract';
import { apiError } from '../common/errors.js';

// Kysely cannot type a builder generic over every table; callers pass typed queries in.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** Reads `order` ("-created_time,id"): only allowed columns; answers [column, direction] pairs. */
export function parseOrder(order: string, allowed: readonly string[], fallback = '-id'): Array<[string, 'asc' | 'desc']> {
  const text = order.trim() || fallback;
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const desc = part.startsWith('-');
      const column = desc ? part.slice(1) : part;
      if (!allowed.includes(column)) throw apiError(400, 'sort_field_invalid', { column });
      return [column, desc ? 'desc' : 'asc'];
    });
}

/** Counts, orders and pages a filtered query into the list envelope `{data, page, size, total_count}`. */
export async function paginate<T>(
  query: AnyQuery,
  q: PageQuery,
  allowedOrder: readonly string[],
  map: (row: never) => T,
  fallbackOrder = '-id',
  /** Table name to qualify order columns with, for joined queries. */
  table?: string,
): Promise<Page<T>> {
  const order = parseOrder(q.order, allowedOrder, fallbackOrder);
  const countRow = await query
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  let paged = query;
  for (const [column, dir] of order) paged = paged.orderBy(table ? `${table}.${column}` : column, dir);
  const rows = await paged
    .limit(q.size)
    .offset((q.page - 1) * q.size)
    .execute();
  return {
    data: rows.map((r) => map(r as never)),
    page: q.page,
    size: q.size,
    total_count: Number((countRow as { n?: unknown } | undefined)?.n ?? 0),
  };
}
