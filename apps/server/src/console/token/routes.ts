import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { IdParam, PageQuery, ROLE, text, TokenAdminSearchQuery, TokenBody, UpdateTokenBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { TOKEN_ORDER_COLUMNS, findTokenById, tokenListQuery } from '../../db/repos/tokens.js';
import { LEASE_KIND, withLeased } from '../../db/repos/quota-leases.js';
import * as service from './service.js';

const StatusOnly = z.object({ status_only: text().optional() });

export function registerTokenRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = requireRole(ctx, ROLE.common);
  const admin = requireRole(ctx, ROLE.admin);
  const columns = TOKEN_ORDER_COLUMNS.map((c) => c);
  // A limited token's remaining quota as shown counts what nodes hold of it in leased slices.
  const shown = <T extends { id: number; remain_quota: number }>(rows: T[]) => withLeased(ctx.db, LEASE_KIND.token, rows, 'remain_quota');
  const shownPage = async <T extends { id: number; remain_quota: number }>(page: { data: T[] }) => ({ ...page, data: await shown(page.data) });

  app.get('/token/', { preHandler: user }, async (req) => {
    const q = parse(PageQuery, req.query);
    const query = tokenListQuery(ctx.db, { userId: req.user!.id, keyword: q.keyword });
    return ok(await shownPage(await paginate(query, q, columns, (r) => service.toTokenJson(r, req.user!.role), '-id', 'tokens')));
  });
  app.get('/token/playground', { preHandler: user }, async (req) => ok(await service.playgroundKey(ctx, req.user!)));
  app.get('/token/admin/search', { preHandler: admin }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(TokenAdminSearchQuery, req.query);
    const query = tokenListQuery(ctx.db, { userId: f.user_id, tokenId: f.token_id, keyword: q.keyword });
    return ok(await shownPage(await paginate(query, q, columns, (r) => service.toTokenJson(r, req.user!.role), '-id', 'tokens')));
  });
  app.put('/token/admin', { preHandler: admin }, async (req) => {
    const statusOnly = Boolean(parse(StatusOnly, req.query).status_only);
    return ok(await service.adminUpdateToken(ctx, req.user!, parse(UpdateTokenBody, req.body), statusOnly));
  });
  app.get('/token/:id', { preHandler: user }, async (req) => {
    const row = await service.loadOwnToken(ctx, req.user!, parse(IdParam, req.params).id);
    return ok(service.toTokenJson((await shown([row]))[0], req.user!.role));
  });
  app.post('/token/', { preHandler: user }, async (req) => {
    const key = await service.createToken(ctx, req.user!, parse(TokenBody, req.body), req.user!.role);
    return ok({ key });
  });
  app.put('/token/', { preHandler: user }, async (req) => {
    const body = parse(UpdateTokenBody, req.body);
    const statusOnly = Boolean(parse(StatusOnly, req.query).status_only);
    const row = await service.loadOwnToken(ctx, req.user!, body.id);
    await service.updateTokenFields(ctx, row, req.user!, body, statusOnly, req.user!.role);
    return ok(service.toTokenJson((await shown([(await findTokenById(ctx.db, row.id))!]))[0], req.user!.role));
  });
  app.delete('/token/:id', { preHandler: user }, async (req) => {
    await service.deleteOwnToken(ctx, req.user!, parse(IdParam, req.params).id);
    return ok();
  });
}
