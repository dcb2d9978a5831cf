/** What is copied, in order, and by which key a row is matched (api.md §1). */
export interface TablePlan {
  table: string;
  /** Matching column: `id` keeps the original ids, so tokens keep their owners and keys. */
  key: string;
  /** Rows newer than N days only (logs with --log-days). */
  since?: string;
}

export const TABLES: TablePlan[] = [
  { table: 'users', key: 'id' },
  { table: 'tokens', key: 'id' },
  { table: 'channels', key: 'id' },
  { table: 'options', key: 'key' },
  { table: 'prices', key: 'model' },
  { table: 'user_groups', key: 'symbol' },
  { table: 'redemptions', key: 'id' },
  { table: 'payments', key: 'id' },
  { table: 'orders', key: 'id' },
  { table: 'logs', key: 'id', since: 'created_at' },
];

/**
 * Columns the original projects name differently (new-api's logs: `use_time` in seconds where
 * ours is `request_time` in milliseconds, `ip` where ours is `source_ip`). Applied when the source
 * has the column and not ours.
 */
export const RENAMES: Record<string, Record<string, { to: string; convert?: (value: unknown) => unknown }>> = {
  logs: {
    use_time: { to: 'request_time', convert: (v) => Math.round(Number(v) * 1000) },
    ip: { to: 'source_ip' },
  },
};

/** Source columns that are never copied: ours decide them (or they do not exist here). */
export const SKIPPED_COLUMNS = new Set(['deleted_at']);

/**
 * A source value as our column stores it: booleans as 0/1, JSON documents as text, soft-delete
 * dates dropped (soft-deleted rows are not copied at all).
 */
export function toTarget(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value;
}

const DECIMAL = /^-?(0|[1-9]\d*)\.\d+$/;

/** Same stored value, whatever the driver's spelling (1 vs '1', 2.5 vs '2.50'). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  const na = Number(a);
  const nb = Number(b);
  if (typeof a !== 'string' || typeof b !== 'string') {
    if (Number.isFinite(na) && Number.isFinite(nb)) return na === nb;
  } else if (DECIMAL.test(a) && DECIMAL.test(b)) return na === nb; // '0.80' (MySQL) and '0.8' (PostgreSQL)
  return String(a) === String(b);
}
