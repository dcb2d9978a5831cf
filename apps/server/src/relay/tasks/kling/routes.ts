import type { FastifyInstance } from 'fastify';
import { HubError } from '../../../common/errors.js';
import { parseJsonOr } from '../../../common/json.js';
import { findOwnTask } from '../../../db/repos/task-rows.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import { submitTask } from '../generic/submit.js';
import { taskFacts } from '../facts.js';
import { linkedData } from '../generic/links.js';
import { kling } from './family.js';
import { KLING_ACTIONS, klingPlan } from './mapping.js';

/** `/kling/v1/:class/:action` and the caller's own task queries, in Kling's answer shape. */
export function registerKling(app: FastifyInstance, state: RelayState): void {
  app.post('/kling/v1/:class/:action', async (req, reply) => {
    const facts = await taskFacts(state, req, 'openai');
    if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) throw new HubError(400, 'request body must be a JSON object');
    const { class: cls, action } = req.params as { class: string; action: string };
    return submitTask(state, facts, kling, klingPlan(cls, action, req.body as Record<string, unknown>), reply);
  });
  for (const action of KLING_ACTIONS) {
    app.get(`/kling/v1/videos/${action}/:id`, async (req) => {
      const facts = await taskFacts(state, req, 'openai', false);
      const row = await findOwnTask(state.ctx.db, facts.caller.user.id, 'kling', (req.params as { id: string }).id);
      if (!row || row.action !== action) throw new HubError(404, 'task not found', { code: 'task_not_found' });
      const data = await linkedData(state, row, parseJsonOr<Record<string, unknown> | null>(row.data, null) ?? { task_id: row.task_id, task_status: 'submitted' });
      return { code: 0, message: 'SUCCEED', request_id: req.id, data };
    });
  }
}
