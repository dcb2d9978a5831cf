import type { AuditEntry } from '@one-hub/contract';

export interface AuditFilters {
  actor: string;
  target_kind: string;
  /** Epoch seconds; 0 = open. */
  start: number;
  end: number;
}

export const EMPTY_FILTERS: AuditFilters = { actor: '', target_kind: '', start: 0, end: 0 };

/** The query of GET /api/audit/ and its CSV export. */
export function auditQuery(f: AuditFilters): Record<string, string | number | undefined> {
  return { actor: f.actor.trim() || undefined, target_kind: f.target_kind || undefined, start_timestamp: f.start || undefined, end_timestamp: f.end || undefined };
}

/** One line per changed field, values as JSON: `name: "a" → "b"`. */
export function diffLines(diff: AuditEntry['diff']): Array<{ field: string; before: string; after: string }> {
  const show = (v: unknown) => (v === null || v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v));
  return Object.entries(diff).map(([field, d]) => ({ field, before: show(d.before), after: show(d.after) }));
}
