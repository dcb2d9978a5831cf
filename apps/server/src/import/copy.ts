import { sql, type Kysely } from 'kysely';
import type { Db, DialectName } from '../db/index.js';
import type { Source } from './source.js';
import { RENAMES, SKIPPED_COLUMNS, sameValue, toTarget, type TablePlan } from './tables.js';
import { upsertStatistics } from '../db/repos/log-writes.js';
import { rollupOfImportedLogs } from './log-rollup.js';

export interface TableCount {
  table: string;
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Soft-deleted source rows, not copied. */
  skipped: number;
  /** Source columns with no place here (kept out, reported). */
  unmapped: string[];
  /** Source rows that cannot be mapped, each with the reason (not copied, reported). */
  rejected?: string[];
  missing?: boolean;
  /** A source table this importer has no place for (reported, not read). */
  notCopied?: boolean;
}

export interface CopyOptions {
  dryRun: boolean;
  batch: number;
  /** Only log rows of the last N days. */
  logDays?: number;
  progress?: (table: string, done: number, total: number) => void;
}

type Row = Record<string, unknown>;

/**
 * Rows grouped by the columns they set. A row leaves out its NULLs so our defaults apply, but a
 * multi-row insert on SQLite fills a column some other row sets with NULL (it has no DEFAULT in
 * VALUES), which a NOT NULL column refuses.
 */
function sameColumns(rows: Row[]): Row[][] {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const shape = Object.keys(r).join(',');
    const group = groups.get(shape);
    if (group) group.push(r);
    else groups.set(shape, [r]);
  }
  return [...groups.values()];
}

/** Copies one table in batches: new rows inserted, differing rows updated, equal rows left alone. */
export async function copyTable(src: Source, target: Db, dialect: DialectName, plan: TablePlan, targetColumns: string[], opts: CopyOptions): Promise<TableCount> {
  const count: TableCount = { table: plan.table, read: 0, inserted: 0, updated: 0, unchanged: 0, skipped: 0, unmapped: [] };
  if (!src.tables().includes(plan.table) || !targetColumns.length) return { ...count, missing: true };
  const sourceColumns = src.columns(plan.table);
  const here = new Set(targetColumns);
  const renames = Object.entries(RENAMES[plan.table] ?? {}).filter(([from, r]) => sourceColumns.includes(from) && !sourceColumns.includes(r.to) && here.has(r.to));
  const renamed = new Set(renames.map(([from]) => from));
  // Tables matched by a name keep our ids: theirs may belong to another row here.
  const columns = sourceColumns.filter((c) => here.has(c) && !SKIPPED_COLUMNS.has(c) && (plan.key === 'id' || c !== 'id'));
  count.unmapped = sourceColumns.filter((c) => !here.has(c) && !SKIPPED_COLUMNS.has(c) && !renamed.has(c));
  const db = target as unknown as Kysely<Record<string, Row>>;
  const total = await src.count(plan.table);
  const since = plan.since && opts.logDays ? { column: plan.since, min: Math.floor(Date.now() / 1000) - opts.logDays * 86_400 } : undefined;
  let after: string | number | undefined;
  for (;;) {
    const rows = await src.page(plan.table, plan.key, after, opts.batch, since);
    if (!rows.length) break;
    after = rows[rows.length - 1][plan.key] as string | number;
    count.read += rows.length;
    const live = rows.filter((r) => r.deleted_at === undefined || r.deleted_at === null);
    count.skipped += rows.length - live.length;
    const keys = live.map((r) => r[plan.key] as string | number);
    const existing = keys.length ? await db.selectFrom(plan.table).selectAll().where(plan.key, 'in', keys).execute() : [];
    const byKey = new Map(existing.map((r) => [String(r[plan.key]), r]));
    const inserts: Row[] = [];
    const updates: Row[] = [];
    for (const r of live) {
      // A NULL takes our column's default (the original left many columns NULL that are NOT NULL here).
      const values: Row = {};
      for (const c of columns) if (r[c] !== null && r[c] !== undefined) values[c] = toTarget(r[c]);
      for (const [from, { to, convert }] of renames) if (r[from] !== null && r[from] !== undefined) values[to] = toTarget(convert ? convert(r[from]) : r[from]);
      const old = byKey.get(String(r[plan.key]));
      if (!old) inserts.push(values);
      else if (Object.keys(values).some((c) => !sameValue(old[c], values[c]))) updates.push(values);
      else count.unchanged++;
    }
    count.inserted += inserts.length;
    count.updated += updates.length;
    if (!opts.dryRun && (inserts.length || updates.length)) {
      await db.transaction().execute(async (trx) => {
        for (const rows of sameColumns(inserts)) await trx.insertInto(plan.table).values(rows).execute();
        for (const u of updates) await trx.updateTable(plan.table).set(u).where(plan.key, '=', u[plan.key] as string | number).execute();
        if (plan.table === 'logs') {
          const refused = await upsertStatistics(trx as unknown as Db, rollupOfImportedLogs(inserts, updates, byKey));
          if (refused) throw refused;
        }
      });
    }
    opts.progress?.(plan.table, count.read, total);
  }
  // PostgreSQL does not move a serial's sequence past ids inserted by hand.
  if (!opts.dryRun && dialect === 'postgres' && plan.key === 'id' && count.inserted) {
    await sql`SELECT setval(pg_get_serial_sequence(${plan.table}, 'id'), (SELECT MAX(id) FROM ${sql.table(plan.table)}))`.execute(target);
  }
  return count;
}
