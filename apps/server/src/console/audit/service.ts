import type { AuditEntry, AuditListQuery, Page, PageQuery } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { paginate } from '../../db/paginate.js';
import { AUDIT_ORDER_COLUMNS, auditListQuery, type AuditRow } from '../../db/repos/audit-logs.js';
import { toCsv } from '../dashboard/series.js';

export function toAuditEntry(row: AuditRow): AuditEntry {
  let diff: AuditEntry['diff'] = {};
  try {
    diff = JSON.parse(row.diff ?? '{}');
  } catch {
    // a row is written by the recorder only; unreadable text shows as no fields
  }
  return {
    id: Number(row.id),
    created_at: Number(row.created_at),
    actor_id: Number(row.actor_id),
    actor_name: row.actor_name,
    actor_role: Number(row.actor_role),
    ip: row.ip,
    action: row.action,
    target_kind: row.target_kind,
    target_id: row.target_id,
    diff,
  };
}

export const listAudit = (ctx: AppContext, f: AuditListQuery, q: PageQuery): Promise<Page<AuditEntry>> =>
  paginate(auditListQuery(ctx.db, f), q, AUDIT_ORDER_COLUMNS, toAuditEntry);

/** At most this many rows per export: narrow the filters for more. */
export const EXPORT_LIMIT = 50_000;

export async function exportAuditCsv(ctx: AppContext, f: AuditListQuery): Promise<string> {
  const rows = await auditListQuery(ctx.db, f).orderBy('id', 'desc').limit(EXPORT_LIMIT).execute();
  const header = ['ID', 'Time (UTC)', 'Actor ID', 'Actor', 'IP', 'Action', 'Target kind', 'Target ID', 'Changes'];
  return toCsv(
    header,
    rows.map((r) => {
      const e = toAuditEntry(r);
      return [e.id, new Date(e.created_at * 1000).toISOString(), e.actor_id, e.actor_name, e.ip, e.action, e.target_kind, e.target_id, JSON.stringify(e.diff)];
    }),
  );
}
