import type { Db } from '../index.js';

export interface JobRunRow {
  name: string;
  last_run_at: number;
  last_duration_ms: number;
  last_outcome: 'ok' | 'error' | null;
  last_message: string;
}

/** Every job's last recorded run. */
export async function listJobRuns(db: Db): Promise<JobRunRow[]> {
  const rows = await db.selectFrom('job_runs').selectAll().execute();
  return rows.map((r) => ({
    name: r.name,
    last_run_at: Number(r.last_run_at),
    last_duration_ms: Number(r.last_duration_ms),
    last_outcome: r.last_outcome === 'ok' || r.last_outcome === 'error' ? r.last_outcome : null,
    last_message: r.last_message ?? '',
  }));
}

/** Records a job's run (one row per job, replaced each time). */
export async function saveJobRun(db: Db, run: JobRunRow): Promise<void> {
  const values = { last_run_at: run.last_run_at, last_duration_ms: run.last_duration_ms, last_outcome: run.last_outcome ?? '', last_message: run.last_message.slice(0, 1000) };
  const updated = await db.updateTable('job_runs').set(values).where('name', '=', run.name).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  try {
    await db.insertInto('job_runs').values({ name: run.name, ...values }).execute();
  } catch {
    // Another writer inserted it in between: write over theirs.
    await db.updateTable('job_runs').set(values).where('name', '=', run.name).execute();
  }
}
