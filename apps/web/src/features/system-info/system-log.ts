import type { SystemLogEntry } from '@one-hub/contract';
import type { ChipColor } from '../../components/data';

/** Auto-refresh choices in seconds (console-screens §12); 5 s is the default. */
export const REFRESH_SECONDS = [1, 3, 5, 10, 30, 60] as const;
export const DEFAULT_REFRESH = 5;
export const DEFAULT_MAX_ENTRIES = 50;
/** The server keeps this many lines. */
export const MAX_ENTRIES_LIMIT = 500;

/** A typed entry count for the request: whole, 1…500, else the default. */
export function entryCount(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) return DEFAULT_MAX_ENTRIES;
  return Math.min(n, MAX_ENTRIES_LIMIT);
}

/**
 * What the viewer lists, newest first: lines after the last "clear" (ISO timestamps compare as text)
 * whose level or message holds the search text, any case.
 */
export function visibleEntries(entries: readonly SystemLogEntry[], search: string, clearedAt: string | null): SystemLogEntry[] {
  const needle = search.trim().toLowerCase();
  return entries
    .filter((e) => (clearedAt === null || e.Timestamp > clearedAt) && (!needle || e.Message.toLowerCase().includes(needle) || e.Level.toLowerCase().includes(needle)))
    .reverse();
}

export function levelColor(level: string): ChipColor {
  if (level === 'error' || level === 'fatal') return 'error';
  if (level === 'warn') return 'warning';
  if (level === 'info') return 'info';
  return 'default';
}
