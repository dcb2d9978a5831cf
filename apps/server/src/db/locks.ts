import { CompiledQuery } from 'kysely';
import type { Db } from './index.js';
import { dialectOf } from './helpers.js';

/** Tables whose rows transactions lock, in the global lock order (see db/retry.ts `transact`). */
export type LockedTable = 'users' | 'tokens' | 'quota_leases' | 'channels';

const CHUNK = 1000;

const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/**
 * Locks rows by ascending id (PostgreSQL and MySQL: `SELECT … ORDER BY id FOR UPDATE`, which
 * takes the row locks in that order) and answers the ids that exist. A multi-row UPDATE locks
 * rows in whatever order its plan visits them; locking first keeps every transaction to the
 * one order, so two of them can never wait on each other. SQLite has one writer at a time and
 * needs nothing: it answers the ids as given.
 */
export async function lockInOrder(trx: Db, table: LockedTable, ids: Iterable<number>): Promise<Set<number>> {
  const sorted = ascending(ids);
  if (dialectOf(trx) === 'sqlite' || !sorted.length) return new Set(sorted);
  const found = new Set<number>();
  for (let i = 0; i < sorted.length; i += CHUNK) {
    const rows = await trx.selectFrom(table).select('id').where('id', 'in', sorted.slice(i, i + CHUNK)).orderBy('id').forUpdate().execute();
    for (const r of rows) found.add(Number(r.id));
  }
  return found;
}

export interface AddColumn {
  name: string;
  /** Never taken below zero (balances). */
  clamped?: boolean;
}

/**
 * Adds per-row deltas to counter columns: `rows` maps an id to one delta per column. PostgreSQL
 * and MySQL lock the rows in id order and then update them in one multi-row statement per
 * thousand rows; SQLite runs one update per row, in id order. Zero rows are skipped.
 */
export async function addToColumns(trx: Db, table: LockedTable, columns: AddColumn[], rows: Map<number, number[]>, alreadyLocked = false): Promise<void> {
  const ids = ascending([...rows].filter(([, d]) => d.some((v) => v !== 0)).map(([id]) => id));
  if (!ids.length) return;
  const d = dialectOf(trx);
  const set = (col: AddColumn, i: number, t: string, v: string) => {
    const sum = `${t}${col.name} + ${v}.d${i}`;
    return `${t}${col.name} = ${col.clamped ? `CASE WHEN ${sum} < 0 THEN 0 ELSE ${sum} END` : sum}`;
  };
  if (d === 'sqlite') {
    const text = `UPDATE ${table} SET ${columns.map((c, i) => set(c, i, '', 'v').replace(/v\.d\d+/g, '?')).join(', ')} WHERE id = ?`;
    for (const id of ids) {
      const deltas = rows.get(id)!;
      const params: unknown[] = [];
      columns.forEach((c, i) => params.push(...(c.clamped ? [deltas[i], deltas[i]] : [deltas[i]])));
      await trx.executeQuery(CompiledQuery.raw(text, [...params, id]));
    }
    return;
  }
  if (!alreadyLocked) await lockInOrder(trx, table, ids);
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    const params: unknown[] = [];
    for (const id of chunk) params.push(id, ...rows.get(id)!);
    const names = ['id', ...columns.map((_, i) => `d${i}`)];
    let text: string;
    if (d === 'postgres') {
      let n = 0;
      const tuples = chunk.map(() => `(${names.map(() => `$${++n}::bigint`).join(', ')})`).join(', ');
      text = `UPDATE ${table} AS t SET ${columns.map((c, i) => set(c, i, 't.', 'v').replace(/^t\./, '')).join(', ')} FROM (VALUES ${tuples}) AS v(${names.join(', ')}) WHERE t.id = v.id`;
    } else {
      const first = `SELECT ${names.map((c) => `? AS ${c}`).join(', ')}`;
      const rest = chunk.slice(1).map(() => ` UNION ALL SELECT ${names.map(() => '?').join(', ')}`).join('');
      text = `UPDATE ${table} AS t JOIN (${first}${rest}) AS v ON t.id = v.id SET ${columns.map((c, i) => set(c, i, 't.', 'v')).join(', ')}`;
    }
    await trx.executeQuery(CompiledQuery.raw(text, params));
  }
}
