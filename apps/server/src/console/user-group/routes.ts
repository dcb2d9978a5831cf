import type { FastifyInstance } from 'fastify';
import { IdParam, PageQuery, ROLE, UpdateUserGroupBody, UserGroupBody, UserGroupListQuery } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { optionalUser, requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { USER_GROUP_ORDER_COLUMNS, userGroupListQuery } from '../../db/repos/user-groups.js';
import * as service from './service.js';

export function registerUserGroupRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = requireRole(ctx, ROLE.admin);
  app.get('/group/', { preHandler: admin }, async () => ok(await service.enabledSymbols(ctx)));
  app.get('/user_group_map', async (req) => {
    const user = await optionalUser(ctx, req);
    return ok(await service.userGroupMap(ctx, user?.group));
  });
  app.get('/user_group/', { preHandler: admin }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(UserGroupListQuery, req.query);
    const enable = f.enable === undefined ? undefined : f.enable === 'true';
    return ok(await paginate(userGroupListQuery(ctx.db, f.Name, enable), q, USER_GROUP_ORDER_COLUMNS, service.toUserGroupJson));
  });
  app.get('/user_group/:id', { preHandler: admin }, async (req) => ok(await service.getUserGroup(ctx, parse(IdParam, req.params).id)));
  app.post('/user_group/', { preHandler: admin }, async (req) => {
    await service.createUserGroup(ctx, parse(UserGroupBody, req.body));
    return ok();
  });
  app.put('/user_group/', { preHandler: admin }, async (req) => {
    await service.updateUserGroupById(ctx, parse(UpdateUserGroupBody, req.body));
    return ok();
  });
  app.put('/user_group/enable/:id', { preHandler: admin }, async (req) => {
    await service.toggleUserGroup(ctx, parse(IdParam, req.params).id);
    return ok();
  });
  app.delete('/user_group/:id', { preHandler: admin }, async (req) => {
    await service.removeUserGroup(ctx, parse(IdParam, req.params).id);
    return ok();
  });
}
