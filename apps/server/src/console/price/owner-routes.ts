import type { FastifyInstance } from 'fastify';
import { IdParam, ModelInfoBody, ModelOwnerBody, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { listModelOwners } from '../../db/repos/model-owners.js';
import { listModelInfo } from '../../db/repos/model-info.js';
import * as owners from './owner-service.js';
import * as info from './model-info-service.js';

/** Model owners (api.md §21.2) and model info (§21.3): public reads, admin writes. */
export function registerOwnerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = { preHandler: requireRole(ctx, ROLE.admin) };

  app.get('/ownedby', async () => ok(await owners.ownerMap(ctx)));
  app.get('/model_ownedby/', async () => ok(await listModelOwners(ctx.db)));
  app.get('/model_ownedby/:id', admin, async (req) => ok(await owners.getOwner(ctx, parse(IdParam, req.params).id)));
  app.post('/model_ownedby/', admin, async (req) => {
    await owners.createOwner(ctx, parse(ModelOwnerBody, req.body));
    return ok();
  });
  app.put('/model_ownedby/', admin, async (req) => {
    await owners.updateOwner(ctx, parse(ModelOwnerBody, req.body));
    return ok();
  });
  app.delete('/model_ownedby/:id', admin, async (req) => {
    await owners.deleteOwner(ctx, parse(IdParam, req.params).id);
    return ok();
  });

  app.get('/model_info/', async () => ok((await listModelInfo(ctx.db)).map(info.toModelInfoJson)));
  app.get('/model_info/:id', admin, async (req) => ok(await info.getModelInfo(ctx, parse(IdParam, req.params).id)));
  app.post('/model_info/', admin, async (req) => {
    const { id: _id, ...body } = parse(ModelInfoBody, req.body);
    await info.createModelInfo(ctx, body);
    return ok();
  });
  app.put('/model_info/', admin, async (req) => {
    await info.updateModelInfoById(ctx, parse(ModelInfoBody, req.body));
    return ok();
  });
  app.delete('/model_info/:id', admin, async (req) => {
    await info.removeModelInfo(ctx, parse(IdParam, req.params).id);
    return ok();
  });
}
