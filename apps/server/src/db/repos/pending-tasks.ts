import type { Db } from '../index.js';

/** Statuses after which a task no longer changes (api.md §2.15–2.16); UNKNOWN is still polled. */
const FINISHED = ['SUCCESS', 'FAILURE'];

/** How many asynchronous tasks are not finished, per table (`task`: Suno/Kling/video, `midjourney`). */
export async function countUnfinishedTasks(db: Db): Promise<Record<string, number>> {
  const [tasks, mj] = await Promise.all([
    db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'not in', FINISHED).executeTakeFirst(),
    db.selectFrom('midjourneys').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'not in', FINISHED).executeTakeFirst(),
  ]);
  return { task: Number(tasks?.n ?? 0), midjourney: Number(mj?.n ?? 0) };
}
