import type { Insertable, Selectable } from 'kysely';
import type { AuditListQuery } from '@one-hub/contract';
import type { Db } from '../index.js';
import type { AuditLogsTable, Database } from '../schema.js';

export type AuditRow = Selectable<AuditLogsTable>;

export async function insertAuditLog(db: Db, row: Insertable<AuditLogsTable>): Promise<void> {
  await db.insertInto('audit_logs').values(row).execute();
}

/** The audit list under its filters (actor by name or id). */
export function auditListQuery(db: Db, f: AuditListQuery) {
  let q = db.selectFrom('audit_logs').selectAll();
  if (f.actor) q = /^\d+$/.test(f.actor) ? q.where((eb) => eb.or([eb('actor_id', '=', Number(f.actor)), eb('actor_name', '=', f.actor!)])) : q.where('actor_name', '=', f.actor);
  if (f.target_kind) q = q.where('target_kind', '=', f.target_kind);
  if (f.target_id) q = q.where('target_id', '=', f.target_id);
  if (f.start_timestamp) q = q.where('created_at', '>=', f.start_timestamp);
  if (f.end_timestamp) q = q.where('created_at', '<=', f.end_timestamp);
  return q;
}

export const AUDIT_ORDER_COLUMNS = ['id', 'created_at', 'actor_id', 'target_kind'] as const;

export async function deleteAuditLogsBefore(db: Db, before: number): Promise<number> {
  const r = await db.deleteFrom('audit_logs').where('created_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

type Table = keyof Database;

/** One row of any table by one column, for the before/after picture of an audited change. */
export async function findRowForAudit(db: Db, table: Table, column: string, value: string | number): Promise<Record<string, unknown> | undefined> {
  // Kysely cannot type a query over a table chosen at run time.
  const row = await db.selectFrom(table as never).selectAll().where(column as never, '=', value as never).executeTakeFirst();
  return row as Record<string, unknown> | undefined;
}
