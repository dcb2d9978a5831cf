import type { FastifyInstance } from 'fastify';
import { CaptureQuery, DeleteLogsQuery, IdParam, LogListQuery, PageQuery, ROLE, type LogCapture } from '@one-hub/contract';
import { capturesOf } from '../../db/repos/log-captures.js';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { sumConsumedQuota } from '../../db/repos/logs.js';
import { currentDeletion, logDeletion, startLogDeletion } from './deletion.js';
import { logPage } from './service.js';

export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = requireRole(ctx, ROLE.common);
  const admin = requireRole(ctx, ROLE.admin);
  const root = requireRole(ctx, ROLE.root);

  app.get('/log/', { preHandler: admin }, async (req) => {
    return ok(await logPage(ctx, parse(LogListQuery, req.query), parse(PageQuery, req.query)));
  });
  app.get('/log/self', { preHandler: user }, async (req) => {
    return ok(await logPage(ctx, parse(LogListQuery, req.query), parse(PageQuery, req.query), req.user!.id));
  });
  app.get('/log/stat', { preHandler: admin }, async (req) => ok({ quota: await sumConsumedQuota(ctx.readDb, parse(LogListQuery, req.query)) }));
  app.get('/log/self/stat', { preHandler: user }, async (req) => {
    return ok({ quota: await sumConsumedQuota(ctx.readDb, parse(LogListQuery, req.query), req.user!.id) });
  });
  // Root reads the captured bodies of a request beside its log row (opt-in capture, relay/pipeline/capture.ts).
  app.get('/log/capture', { preHandler: root }, async (req) => {
    const rows = await capturesOf(ctx.readDb, parse(CaptureQuery, req.query).request_id);
    return ok(rows.map((r): LogCapture => ({ ...r, request_headers: r.request_headers ?? '', request_body: r.request_body ?? '', response_body: r.response_body ?? '', stream: r.stream === 1 })));
  });
  // A durable job (log_deletions) in batches yielding to the relay. As in the original the answer
  // is the count once done; with `background=true` it is the job record at once, read again below.
  app.delete('/log/', { preHandler: admin }, async (req) => {
    const q = parse(DeleteLogsQuery, req.query);
    const { job, done } = await startLogDeletion(ctx, q.target_timestamp);
    if (q.background) {
      done.catch(() => undefined);
      return ok({ ...job });
    }
    return ok(await done);
  });
  app.get('/log/deletion', { preHandler: admin }, async () => ok(await currentDeletion(ctx)));
  app.get('/log/deletion/:id', { preHandler: admin }, async (req) => ok(await logDeletion(ctx, parse(IdParam, req.params).id)));
}
