import { readJson, writeJson } from '../../lib/storage';

/** Local-storage key holding every table's rows-per-page, keyed by table id (console-screens §0, §7). */
export const PAGE_SIZES_KEY = 'user_page_sizes';
export const PAGE_SIZE_OPTIONS = [10, 30, 50, 100];
export const DEFAULT_PAGE_SIZE = 10;

export function readPageSize(table: string, fallback = DEFAULT_PAGE_SIZE): number {
  const stored = readJson<Record<string, unknown>>(PAGE_SIZES_KEY);
  const size = stored && typeof stored === 'object' ? Number(stored[table]) : NaN;
  return Number.isInteger(size) && size > 0 ? size : fallback;
}

export function writePageSize(table: string, size: number): void {
  const stored = readJson<Record<string, number>>(PAGE_SIZES_KEY);
  writeJson(PAGE_SIZES_KEY, { ...(stored && typeof stored === 'object' ? stored : {}), [table]: size });
}

/** `id` ascending → `-id` descending → `id` again; another column starts ascending. */
export function nextOrder(current: string | undefined, field: string): string {
  if (current === field) return `-${field}`;
  return field;
}

/** `-id` → { field: 'id', order: 'desc' } for the table header. */
export function parseOrder(order: string | undefined): { field: string; order: 'asc' | 'desc' } | undefined {
  if (!order) return undefined;
  return order.startsWith('-') ? { field: order.slice(1), order: 'desc' } : { field: order, order: 'asc' };
}
