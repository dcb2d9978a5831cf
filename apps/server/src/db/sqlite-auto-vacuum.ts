import type BetterSqlite3 from 'better-sqlite3';

/**
 * New SQLite files use incremental auto-vacuum, so space freed by deletions can be handed back
 * to the file system in small steps (the delete worker's incremental_vacuum) instead of one VACUUM that locks
 * the database for as long as it copies it. A file created before this setting is converted
 * once, at start-up, before anything is served (a VACUUM: about a second per 100 MB, and
 * as much free disk as the file takes).
 */
export function useIncrementalVacuum(raw: BetterSqlite3.Database): void {
  if (raw.pragma('auto_vacuum', { simple: true }) === 2) return;
  raw.pragma('auto_vacuum = INCREMENTAL');
  if (Number(raw.pragma('page_count', { simple: true })) > 0) raw.exec('VACUUM');
}
