import type { FastifyInstance } from 'fastify';
import { IdParam, MidjourneyListQuery, PageQuery, ROLE, TaskListQuery, TaskResultParam } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { MIDJOURNEY_ORDER_COLUMNS, TASK_ORDER_COLUMNS, midjourneyListQuery, taskListQuery, type MidjourneyRow, type TaskRow } from '../../db/repos/tasks.js';
import { streamTaskResult, streamVideoContent, toMidjourneyJson, toTaskJson } from './service.js';
import { streamImage } from '../../relay/tasks/midjourney/reads.js';
import { findMidjourneyById } from '../../db/repos/task-rows.js';
import { apiError } from '../../common/errors.js';

/** Midjourney and async task lists (api.md §25), and their results streamed through the server. */
export function registerTaskRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = requireRole(ctx, ROLE.common);
  const admin = requireRole(ctx, ROLE.admin);

  app.get('/mj/', { preHandler: admin }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(MidjourneyListQuery, req.query);
    return ok(await paginate(midjourneyListQuery(ctx.db, f), q, MIDJOURNEY_ORDER_COLUMNS, (r: MidjourneyRow) => toMidjourneyJson(r, false)));
  });
  app.get('/mj/self', { preHandler: user }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(MidjourneyListQuery, req.query);
    return ok(await paginate(midjourneyListQuery(ctx.db, f, req.user!.id), q, MIDJOURNEY_ORDER_COLUMNS, (r: MidjourneyRow) => toMidjourneyJson(r, true)));
  });
  // The console shows result images through the gateway: upstream URLs stay on the server.
  app.get('/mj/image/:id', { preHandler: user }, async (req, reply) => {
    const row = await findMidjourneyById(ctx.db, Number((req.params as { id: string }).id) || 0);
    if (!row || (row.user_id !== req.user!.id && req.user!.role < ROLE.admin)) throw apiError(404, 'task_not_found');
    return streamImage(ctx.db, row, reply);
  });
  // Suno and Kling result files and OpenAI video content, streamed to the task's owner or an admin.
  app.get('/task/:id/result/:n', { preHandler: user }, async (req, reply) => {
    const p = parse(TaskResultParam, req.params);
    return streamTaskResult(ctx, req.user!, p.id, p.n, req, reply);
  });
  app.get('/task/:id/content', { preHandler: user }, async (req, reply) => streamVideoContent(ctx, req.user!, parse(IdParam, req.params).id, req, reply));
  app.get('/task/', { preHandler: admin }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(TaskListQuery, req.query);
    return ok(await paginate(taskListQuery(ctx.db, f), q, TASK_ORDER_COLUMNS, (r: TaskRow) => toTaskJson(r, false)));
  });
  app.get('/task/self', { preHandler: user }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(TaskListQuery, req.query);
    return ok(await paginate(taskListQuery(ctx.db, f, req.user!.id), q, TASK_ORDER_COLUMNS, (r: TaskRow) => toTaskJson(r, true)));
  });
}
