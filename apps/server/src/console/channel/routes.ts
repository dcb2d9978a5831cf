import type { FastifyInstance } from 'fastify';
import { BatchIdsBody, CHANNEL_TYPES, ChannelBody, type ChannelKey, ChannelListQuery, ChannelTestQuery, IdParam, PageQuery, ProviderModelsBody, ROLE, UpdateChannelBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { notFound, apiError } from '../../common/errors.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { failure, ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { CHANNEL_ORDER_COLUMNS, channelListQuery } from '../../db/repos/channels.js';
import { queryBalance, testChannel } from '../../relay/channel-ops.js';
import { registerChannelTagRoutes } from './tags.js';
import { toChannelJson } from './channel-json.js';
import * as service from './service.js';
import * as ops from './ops-service.js';
import { requireStepUp, stepUpSatisfied } from '../auth/step-up/service.js';

/** Channel routes (api.md §18), admin only. Keys appear only through the explicit reveal (and the update's answer). */
export function registerChannelRoutes(app: FastifyInstance, ctx: AppContext): void {
  const opts = { preHandler: requireRole(ctx, ROLE.admin) };
  // Showing a full key asks an admin with two-factor or a passkey to confirm first (step-up).
  const reveal = { preHandler: [opts.preHandler, requireStepUp(ctx)] };

  registerChannelTagRoutes(app, ctx);
  app.get('/channel/types', opts, async () => ok(CHANNEL_TYPES));
  // Not the envelope: the channel form reads it as an OpenAI model list.
  app.get('/channel/models', opts, async () => ops.pricedModelList(ctx));
  app.post('/channel/provider_models_list', opts, async (req) => {
    const body = parse(ProviderModelsBody, req.body);
    const stored = body.id ? await service.loadChannel(ctx, body.id) : undefined;
    return ok(await ops.providerModels(ctx, body, stored));
  });
  app.get('/channel/test', opts, async () => (ops.startTestAll(ctx) ? ok() : failure('channel_test_running')));
  app.get('/channel/test/:id', opts, async (req) => {
    const channel = await service.loadChannel(ctx, parse(IdParam, req.params).id);
    const { success, message, time, code, args } = await testChannel(ctx, channel, parse(ChannelTestQuery, req.query).model);
    return { success, message, time, ...(code ? { code } : {}), ...(args ? { args } : {}) };
  });
  app.get('/channel/update_balance', opts, async () => ok(await ops.updateAllBalances(ctx)));
  app.get('/channel/update_balance/:id', opts, async (req) => {
    const channel = await service.loadChannel(ctx, parse(IdParam, req.params).id);
    try {
      const balance = await queryBalance(ctx, channel);
      if (balance === null) return { ...failure('balance_unsupported'), balance: 0 };
      return { success: true, message: '', balance };
    } catch (error) {
      // An unreachable or refusing provider is an answer about the channel, not a server fault.
      return { ...failure('balance_failed', { reason: (error as Error).message }), balance: 0 };
    }
  });
  app.get('/channel/', opts, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(ChannelListQuery, req.query);
    return ok(await paginate(channelListQuery(ctx.db, f), q, CHANNEL_ORDER_COLUMNS, (r) => toChannelJson(r, false)));
  });
  app.delete('/channel/disabled', opts, async () => ok(await service.deleteDisabledChannels(ctx)));
  app.delete('/channel/batch', opts, async (req) => ok(await service.deleteChannels(ctx, parse(BatchIdsBody, req.body).ids)));
  app.put('/channel/batch/del_model', opts, async (req) => {
    const body = parse(BatchIdsBody, req.body);
    return ok(await service.removeModelFromChannels(ctx, body.ids, body.value), '更新成功');
  });
  app.put('/channel/batch/azure_api', opts, async (req) => {
    const body = parse(BatchIdsBody, req.body);
    return ok(await service.setOtherOnChannels(ctx, body.ids, body.value), '更新成功');
  });
  // The detail leaves the key out, like the list: opening the edit dialog reveals nothing.
  app.get('/channel/:id', opts, async (req) => ok(toChannelJson(await service.loadChannel(ctx, parse(IdParam, req.params).id), false)));
  // Only an explicit reveal answers the stored key (audited as `reveal_key`).
  app.post('/channel/:id/key', reveal, async (req) => ok<ChannelKey>({ key: (await service.loadChannel(ctx, parse(IdParam, req.params).id)).key }));
  app.post('/channel/', opts, async (req) => ok(await service.createChannels(ctx, parse(ChannelBody, req.body))));
  app.put('/channel/', opts, async (req) => {
    const row = await service.updateChannelById(ctx, parse(UpdateChannelBody, req.body));
    return ok(toChannelJson(row, await stepUpSatisfied(ctx, req)));
  });
  app.delete('/channel/:id', opts, async (req) => {
    const count = await service.deleteChannels(ctx, [parse(IdParam, req.params).id]);
    if (!count) throw apiError(404, 'channel_not_found');
    return ok();
  });
}
