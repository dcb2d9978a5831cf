import type { FastifyInstance } from 'fastify';
import { DeleteLogsQuery, IdParam, LogListQuery, PageQuery, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { LOG_ORDER_COLUMNS, logListQuery, sumConsumedQuota } from '../../db/repos/logs.js';
import { logDeletion, startLogDeletion } from './deletion.js';
import { toLogJson, type LogRow } from './service.js';

export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = requireRole(ctx, ROLE.common);
  const admin = requireRole(ctx, ROLE.admin);

  app.get('/log/', { preHandler: admin }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(LogListQuery, req.query);
    return ok(await paginate(logListQuery(ctx.readDb, f), q, LOG_ORDER_COLUMNS, (r: LogRow) => toLogJson(r, true), '-id', 'logs'));
  });
  app.get('/log/self', { preHandler: user }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(LogListQuery, req.query);
    return ok(await paginate(logListQuery(ctx.readDb, f, req.user!.id), q, LOG_ORDER_COLUMNS, (r: LogRow) => toLogJson(r, false), '-id', 'logs'));
  });
  app.get('/log/stat', { preHandler: admin }, async (req) => ok({ quota: await sumConsumedQuota(ctx.readDb, parse(LogListQuery, req.query)) }));
  app.get('/log/self/stat', { preHandler: user }, async (req) => {
    return ok({ quota: await sumConsumedQuota(ctx.readDb, parse(LogListQuery, req.query), req.user!.id) });
  });
  // Batched, yielding to the relay between batches. As in the original the answer is the count
  // once done; with `background=true` it is the progress record at once, read again below.
  app.delete('/log/', { preHandler: admin }, async (req) => {
    const q = parse(DeleteLogsQuery, req.query);
    const { job, done } = startLogDeletion(ctx, q.target_timestamp);
    if (q.background) {
      done.catch(() => undefined);
      return ok({ ...job });
    }
    return ok(await done);
  });
  app.get('/log/deletion/:id', { preHandler: admin }, async (req) => ok(logDeletion(ctx, parse(IdParam, req.params).id)));
}
