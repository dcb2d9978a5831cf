import type { AuditEntry } from '@one-hub/contract';

export interface AuditFilters {
  actor: string;
  target_kind: string;
  /** `datetime-local` text, local time; empty = open. */
  start: string;
  end: string;
}

export const EMPTY_FILTERS: AuditFilters = { actor: '', target_kind: '', start: '', end: '' };

const seconds = (text: string) => (text ? Math.floor(new Date(text).getTime() / 1000) : undefined);

/** The query of GET /api/audit/ and its CSV export. */
export function auditQuery(f: AuditFilters): Record<string, string | number | undefined> {
  return { actor: f.actor.trim() || undefined, target_kind: f.target_kind || undefined, start_timestamp: seconds(f.start), end_timestamp: seconds(f.end) };
}

/** One line per changed field, values as JSON: `name: "a" → "b"`. */
export function diffLines(diff: AuditEntry['diff']): Array<{ field: string; before: string; after: string }> {
  const show = (v: unknown) => (v === null || v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v));
  return Object.entries(diff).map(([field, d]) => ({ field, before: show(d.before), after: show(d.after) }));
}
