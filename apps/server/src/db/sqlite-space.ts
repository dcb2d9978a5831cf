import { sqliteHandle, type Db } from './index.js';

/** Free pages the SQLite file holds (0 on other databases). */
export function freePages(db: Db): number {
  const raw = sqliteHandle(db);
  return raw ? Number(raw.pragma('freelist_count', { simple: true })) : 0;
}

/**
 * Gives up to `pages` free pages back to the file system (SQLite with incremental auto-vacuum;
 * a no-op elsewhere) and answers how many free pages are left. A step of 1 000 pages (4 MB)
 * takes a few milliseconds, so callers yield between steps and the relay keeps its thread.
 */
export function incrementalVacuumStep(db: Db, pages = 1000): number {
  const raw = sqliteHandle(db);
  if (!raw || raw.inTransaction) return 0;
  raw.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
  return Number(raw.pragma('freelist_count', { simple: true }));
}

/** Moves the write-ahead log into the file without waiting for readers (so the file's size shows what was freed). */
export function checkpointSqlite(db: Db): void {
  sqliteHandle(db)?.pragma('wal_checkpoint(PASSIVE)');
}
