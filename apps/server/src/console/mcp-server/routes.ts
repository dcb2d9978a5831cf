import type { FastifyInstance } from 'fastify';
import { CreateMcpServerBody, IdParam, PageQuery, ROLE, UpdateMcpServerBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { MCP_SERVER_ORDER_COLUMNS, mcpServerListQuery } from '../../db/repos/mcp-servers.js';
import * as service from '../../mcp/registry.js';

/** The MCP gateway's servers (issue 40 point 7): admins only; credentials go in, never out. */
export function registerMcpServerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = requireRole(ctx, ROLE.admin);
  app.get('/mcp_server/', { preHandler: admin }, async (req) => ok(await paginate(mcpServerListQuery(ctx.db), parse(PageQuery, req.query), MCP_SERVER_ORDER_COLUMNS, service.toMcpServerView)));
  app.get('/mcp_server/:id', { preHandler: admin }, async (req) => ok(service.toMcpServerView(await service.loadMcpServer(ctx, parse(IdParam, req.params).id))));
  app.post('/mcp_server/', { preHandler: admin }, async (req) => ok(await service.createMcpServer(ctx, parse(CreateMcpServerBody, req.body))));
  app.put('/mcp_server/', { preHandler: admin }, async (req) => ok(await service.updateMcpServerById(ctx, parse(UpdateMcpServerBody, req.body))));
  app.delete('/mcp_server/:id', { preHandler: admin }, async (req) => {
    await service.removeMcpServer(ctx, parse(IdParam, req.params).id);
    return ok();
  });
  app.post('/mcp_server/:id/refresh', { preHandler: admin }, async (req) => ok(await service.refreshMcpServer(ctx, parse(IdParam, req.params).id)));
}
