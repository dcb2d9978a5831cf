import type { FastifyInstance } from 'fastify';
import { AuditListQuery, PageQuery, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import * as service from './service.js';

/** The admin audit log: root reads and exports it; nothing edits or deletes it through the API. */
export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  const root = requireRole(ctx, ROLE.root);
  app.get('/audit/', { preHandler: root }, async (req) => ok(await service.listAudit(ctx, parse(AuditListQuery, req.query), parse(PageQuery, req.query))));
  app.get('/audit/export', { preHandler: root }, async (req, reply) => {
    const csv = await service.exportAuditCsv(ctx, parse(AuditListQuery, req.query));
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename=audit_log_${Math.floor(Date.now() / 1000)}.csv`);
    return csv;
  });
}
