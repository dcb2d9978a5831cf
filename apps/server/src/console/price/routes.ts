import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DeletePricesBody, IdParam, ModelOwnerBody, MultiplePriceBody, PriceBody, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError, notFound } from '../../common/errors.js';
import { optionalUser, requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { deleteModelOwner, findModelOwner, listModelOwners, upsertModelOwner } from '../../db/repos/prices.js';
import * as service from './service.js';

const PriceType = z.object({ type: z.string().optional() });
const cors = { 'access-control-allow-origin': '*' };

export function registerPriceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = requireRole(ctx, ROLE.admin);

  app.get('/prices', async (req, reply) => {
    reply.headers(cors);
    const type = parse(PriceType, req.query).type || 'db';
    if (type === 'db') return ok(await service.currentPrices(ctx));
    if (type === 'default') return ok(service.defaultPrices());
    throw new HubError(400, 'pricing data not found');
  });
  app.get('/prices/model_list', { preHandler: admin }, async () => ok(await service.modelList(ctx)));
  app.post('/prices/single', { preHandler: admin }, async (req) => {
    await service.createPrice(ctx, parse(PriceBody, req.body));
    return ok();
  });
  app.put('/prices/single/*', { preHandler: admin }, async (req) => {
    await service.updatePrice(ctx, decodeURIComponent((req.params as { '*': string })['*']), parse(PriceBody, req.body));
    return ok();
  });
  app.delete('/prices/single/*', { preHandler: admin }, async (req) => {
    await service.deletePrice(ctx, decodeURIComponent((req.params as { '*': string })['*']));
    return ok();
  });
  app.post('/prices/multiple', { preHandler: admin }, async (req) => {
    await service.savePrices(ctx, parse(MultiplePriceBody, req.body));
    return ok();
  });
  app.put('/prices/multiple/delete', { preHandler: admin }, async (req) => {
    await service.removePrices(ctx, parse(DeletePricesBody, req.body).models);
    return ok();
  });

  app.get('/available_model', async (req, reply) => {
    reply.headers(cors);
    const user = await optionalUser(ctx, req);
    return ok(await service.availableModels(ctx, user?.group));
  });
  app.get('/ownedby', async () => ok(await service.ownerMap(ctx)));
  app.get('/model_ownedby/', async () => ok(await listModelOwners(ctx.db)));
  app.get('/model_ownedby/:id', { preHandler: admin }, async (req) => {
    const owner = await findModelOwner(ctx.db, parse(IdParam, req.params).id);
    if (!owner) throw notFound('owner not found');
    return ok(owner);
  });
  app.post('/model_ownedby/', { preHandler: admin }, async (req) => {
    const body = parse(ModelOwnerBody, req.body);
    if (body.id <= 1000) throw new HubError(400, 'invalid id');
    if (await findModelOwner(ctx.db, body.id)) throw new HubError(409, 'owner id already exists');
    await upsertModelOwner(ctx.db, body);
    return ok();
  });
  app.put('/model_ownedby/', { preHandler: admin }, async (req) => {
    const body = parse(ModelOwnerBody, req.body);
    if (!(await findModelOwner(ctx.db, body.id))) throw notFound('owner not found');
    await upsertModelOwner(ctx.db, body);
    return ok();
  });
  app.delete('/model_ownedby/:id', { preHandler: admin }, async (req) => {
    const id = parse(IdParam, req.params).id;
    if (id <= 1000) throw new HubError(400, 'invalid id');
    await deleteModelOwner(ctx.db, id);
    return ok();
  });
  app.get('/model_info/', async () => ok(await ctx.db.selectFrom('model_info').selectAll().orderBy('id', 'desc').execute()));
}
