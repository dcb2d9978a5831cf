import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DeletePricesBody, MultiplePriceBody, PriceBody, PriceSyncBody, PriceSyncApplyBody, PriceSyncQuery, PriceSyncRemoteBody, ROLE, text } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { optionalUser, requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { registerOwnerRoutes } from './owner-routes.js';
import * as service from './service.js';
import { applyPriceSync, previewPriceSync } from './remote-sync.js';

const PriceType = z.object({ type: text().optional() });
const ModelPath = z.object({ '*': text().min(1, 'model is required') });
const cors = { 'access-control-allow-origin': '*' };

/** Prices (api.md §21.1, §11), model owners and model info. */
export function registerPriceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = requireRole(ctx, ROLE.admin);
  const model = (params: unknown) => decodeURIComponent(parse(ModelPath, params)['*']);

  app.get('/prices', async (req, reply) => {
    reply.headers(cors);
    const type = parse(PriceType, req.query).type ?? 'db';
    if (type === 'db') return ok(await service.currentPrices(ctx));
    if (type === 'default') return ok(service.defaultPrices());
    // `old` converted the legacy ModelRatio option, which this implementation never had.
    throw apiError(400, 'pricing_data_missing');
  });
  app.get('/prices/model_list', { preHandler: admin }, async () => ok(await service.modelList(ctx)));
  app.get('/prices/updateService', { preHandler: admin }, async () => ok(ctx.config.UPDATE_PRICE_SERVICE));
  app.post('/prices/single', { preHandler: admin }, async (req) => {
    await service.createPrice(ctx, parse(PriceBody, req.body));
    return ok();
  });
  app.put('/prices/single/*', { preHandler: admin }, async (req) => {
    await service.updatePrice(ctx, model(req.params), parse(PriceBody, req.body));
    return ok();
  });
  app.delete('/prices/single/*', { preHandler: admin }, async (req) => {
    await service.deletePrice(ctx, model(req.params));
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
  app.post('/prices/sync', { preHandler: admin }, async (req) => {
    await service.syncPrices(ctx, parse(PriceSyncBody, req.body), parse(PriceSyncQuery, req.query).updateMode);
    return ok();
  });
  // Server-side price sync from a published list: preview the diff, then apply it (audited with the diff).
  app.post('/prices/sync/preview', { preHandler: admin }, async (req) => {
    const body = parse(PriceSyncRemoteBody, req.body);
    return ok(await previewPriceSync(ctx, body.url ?? ctx.config.UPDATE_PRICE_SERVICE, body.updateMode));
  });
  app.post('/prices/sync/apply', { preHandler: admin }, async (req) => {
    const u = req.user!;
    return ok(await applyPriceSync(ctx, parse(PriceSyncApplyBody, req.body), { id: u.id, username: u.username, role: u.role, ip: req.ip }));
  });
  app.get('/available_model', async (req, reply) => {
    reply.headers(cors);
    const user = await optionalUser(ctx, req);
    return ok(await service.availableModels(ctx, user?.group));
  });
  registerOwnerRoutes(app, ctx);
}
