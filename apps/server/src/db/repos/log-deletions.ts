import { sql, type Selectable } from 'kysely';
import type { Db } from '../index.js';
import type { LogDeletionsTable } from '../schema.js';
import { dialectOf, insertReturningId } from '../helpers.js';

export type LogDeletionRow = Selectable<LogDeletionsTable>;

const num = (v: unknown) => Number(v ?? 0);
const normal = (r: LogDeletionRow): LogDeletionRow => ({
  ...r,
  id: num(r.id), target_timestamp: num(r.target_timestamp), type: num(r.type), deleted: num(r.deleted),
  last_id: num(r.last_id), max_id: num(r.max_id), started_at: num(r.started_at), finished_at: num(r.finished_at),
});

/**
 * The id range a deletion walks: the oldest and newest log ids written before `before` (of the
 * type when not 0), read once from the (created_at, …) index. Rows written later have higher ids
 * and newer times, so they never fall inside a walked range's match.
 */
export async function logIdRangeBefore(db: Db, before: number, type: number): Promise<{ min: number; max: number }> {
  let q = db.selectFrom('logs').select((eb) => [eb.fn.min('id').as('lo'), eb.fn.max('id').as('hi')]).where('created_at', '<', before);
  if (type) q = q.where('type', '=', type);
  const r = await q.executeTakeFirst();
  return { min: num(r?.lo), max: num(r?.hi) };
}

export async function insertLogDeletion(db: Db, row: { target_timestamp: number; type: number; last_id: number; max_id: number; started_at: number }): Promise<number> {
  return insertReturningId(db, 'log_deletions', { ...row, status: 'running' });
}

/**
 * A new running job over the rows written before `before` (of the type when not 0): its walk starts
 * just below the oldest matching id (an empty range is a job with nothing to walk). The range is
 * read on `read` (the console's read connection), the row written on `db`.
 */
export async function createLogDeletion(db: Db, read: Db, before: number, type: number, startedAt: number): Promise<LogDeletionRow> {
  const { min, max } = await logIdRangeBefore(read, before, type);
  const id = await insertLogDeletion(db, { target_timestamp: before, type, last_id: max ? min - 1 : 0, max_id: max, started_at: startedAt });
  return (await logDeletionById(db, id))!;
}

export async function logDeletionById(db: Db, id: number): Promise<LogDeletionRow | undefined> {
  const r = await db.selectFrom('log_deletions').selectAll().where('id', '=', id).executeTakeFirst();
  return r && normal(r);
}

/** The running deletion (one at a time), else the newest one; undefined when there never was one. */
export async function currentLogDeletion(db: Db): Promise<LogDeletionRow | undefined> {
  const [running] = await runningLogDeletions(db);
  if (running) return running;
  const last = await db.selectFrom('log_deletions').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
  return last && normal(last);
}

export async function runningLogDeletions(db: Db): Promise<LogDeletionRow[]> {
  return (await db.selectFrom('log_deletions').selectAll().where('status', '=', 'running').orderBy('id').execute()).map(normal);
}

export async function finishLogDeletion(db: Db, id: number, status: 'done' | 'failed', error: string, at: number): Promise<void> {
  await db.updateTable('log_deletions').set({ status, error: error.slice(0, 1000), finished_at: at }).where('id', '=', id).where('status', '=', 'running').execute();
}

/**
 * One batch of a deletion: the matching rows with ids in (from, to] go, and the job's count and
 * `last_id` move in the same transaction — so after a crash the count is exact and the walk
 * resumes where it stopped. The move is conditional on `last_id` still being `from`: a second
 * runner of the same job (another node) deletes nothing and learns it is not the owner (null).
 */
export async function deleteLogRange(db: Db, job: RangeJob, from: number, to: number): Promise<number | null> {
  return deletionBatch(db).execute(async (tx) => {
    const moved = await tx.updateTable('log_deletions').set({ last_id: to }).where('id', '=', job.id).where('last_id', '=', from).where('status', '=', 'running').executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return null;
    const n = Number((await logRangeDelete(tx, job, from, to).executeTakeFirst()).numDeletedRows);
    if (n) await tx.updateTable('log_deletions').set({ deleted: sql`deleted + ${n}` }).where('id', '=', job.id).execute();
    return n;
  });
}

/**
 * The transaction of one batch. READ COMMITTED on MySQL: under its default REPEATABLE READ a range
 * delete also locks the gap after its last row, and for the batch that reaches the newest row that
 * gap is where every new log row goes — the relay's log flush and an admin's balance edit (its
 * manage row) then waited for the batch, 50 s for a lock wait in a test. PostgreSQL is there by default.
 */
export const deletionBatch = (db: Db) => (dialectOf(db) === 'sqlite' ? db.transaction() : db.transaction().setIsolationLevel('read committed'));

type RangeJob = { id: number; target_timestamp: number; type: number };

/**
 * The matching rows of one id span. On SQLite `+column` keeps the planner on the rowid range
 * (otherwise it walks the type/time index over the whole job: see rangeDeleteSql in delete-worker).
 */
export function logRangeDelete(db: Db, job: RangeJob, from: number, to: number) {
  const plain = dialectOf(db) !== 'sqlite';
  const col = (name: 'created_at' | 'type') => (plain ? sql<number>`${sql.ref(name)}` : sql<number>`+${sql.ref(name)}`);
  let q = db.deleteFrom('logs').where('id', '>', from).where('id', '<=', to).where(col('created_at'), '<', job.target_timestamp);
  if (job.type) q = q.where(col('type'), '=', job.type);
  return q;
}
