import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HubError } from '../../../common/errors.js';
import { parseJsonOr } from '../../../common/json.js';
import type { TaskRow } from '../../../db/repos/tasks.js';
import { findOwnTask, listOwnTasks } from '../../../db/repos/task-rows.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import { submitTask } from '../generic/submit.js';
import { taskFacts } from '../facts.js';
import { linkedData } from '../generic/links.js';
import { suno } from './family.js';
import { sunoPlan } from './mapping.js';

/** Drops every `user_id` key (music results carry the upstream account's id). */
function withoutUserIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUserIds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'user_id').map(([k, v]) => [k, withoutUserIds(v)]));
  return value;
}

/** A task as a Suno proxy answers it; result URLs are the gateway's links. */
async function sunoTask(state: RelayState, row: TaskRow) {
  const raw = parseJsonOr<unknown>(row.data, null);
  const data = await linkedData(state, row, row.action === 'MUSIC' ? withoutUserIds(raw) : raw);
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: `${row.progress}%`,
    data,
  };
}

const body = (req: FastifyRequest) => {
  if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) throw new HubError(400, 'request body must be a JSON object');
  return req.body as Record<string, unknown>;
};

/** `/suno/submit/:action`, `/suno/fetch` (the caller's tasks, at most 100) and `/suno/fetch/:id`. */
export function registerSuno(app: FastifyInstance, state: RelayState): void {
  app.post('/suno/submit/:action', async (req, reply) => {
    const facts = await taskFacts(state, req, 'openai');
    return submitTask(state, facts, suno, sunoPlan((req.params as { action: string }).action, body(req)), reply);
  });
  app.post('/suno/fetch', async (req) => {
    const facts = await taskFacts(state, req, 'openai');
    const ids = body(req).ids;
    if (!Array.isArray(ids) || ids.length > 100 || ids.some((id) => typeof id !== 'string')) throw new HubError(400, 'ids must be an array of at most 100 task ids');
    const rows = await listOwnTasks(state.ctx.db, facts.caller.user.id, 'suno', ids as string[]);
    return { code: 'success', message: '', data: await Promise.all(rows.map((row) => sunoTask(state, row))) };
  });
  app.get('/suno/fetch/:id', async (req) => {
    const facts = await taskFacts(state, req, 'openai');
    const row = await findOwnTask(state.ctx.db, facts.caller.user.id, 'suno', (req.params as { id: string }).id);
    if (!row) throw new HubError(404, 'task not found', { code: 'task_not_found' });
    return { code: 'success', message: '', data: await sunoTask(state, row) };
  });
}
