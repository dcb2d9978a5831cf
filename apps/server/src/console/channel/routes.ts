import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BatchIdsBody, CHANNEL_TYPES, ChannelBody, ChannelListQuery, IdParam, PageQuery, ROLE, UpdateChannelBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { CHANNEL_ORDER_COLUMNS, channelListQuery } from '../../db/repos/channels.js';
import { fetchUpstreamModels, queryBalance, testChannel } from '../../relay/channel-ops.js';
import { registerChannelTagRoutes } from './tags.js';
import { listModelOwners, listPrices } from '../../db/repos/prices.js';
import { listEnabledChannels } from '../../db/repos/channels.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import { toChannelJson } from './channel-json.js';
import * as service from './service.js';

const TestQuery = z.object({ model: z.string().trim().max(100).optional() });
const ProviderModelsBody = ChannelBody.partial().extend({ id: z.coerce.number().int().optional(), type: z.coerce.number().int() });
let testAllRunning = false;

export function registerChannelRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = requireRole(ctx, ROLE.admin);
  const opts = { preHandler: admin };

  registerChannelTagRoutes(app, ctx);
  app.get('/channel/types', opts, async () => ok(CHANNEL_TYPES));
  // Every priced model as an OpenAI model list (not the envelope), for the channel form's picker.
  app.get('/channel/models', opts, async () => {
    const owners = new Map((await listModelOwners(ctx.db)).map((o) => [o.id, o.name]));
    const data = (await listPrices(ctx.db)).map((p) => ({ id: p.model, object: 'model', created: 1677649963, owned_by: owners.get(p.channel_type) ?? '未知' }));
    data.sort((a, b) => a.owned_by.localeCompare(b.owned_by) || a.id.localeCompare(b.id));
    return { object: 'list', data };
  });
  app.post('/channel/provider_models_list', opts, async (req) => {
    const body = parse(ProviderModelsBody, req.body);
    const stored = body.id ? await service.loadChannel(ctx, body.id) : undefined;
    const key = body.key?.split('\n')[0]?.trim() || stored?.key;
    if (!key) throw new HubError(400, 'key cannot be empty');
    const probe = { ...(stored ?? {}), type: body.type, key, base_url: body.base_url ?? stored?.base_url ?? '', other: body.other ?? stored?.other ?? '', proxy: body.proxy ?? stored?.proxy ?? '', model_mapping: null, model_headers: null } as ChannelRow;
    return ok(await fetchUpstreamModels(ctx, probe));
  });
  // Tests every enabled channel in the background; re-enables auto-disabled ones that pass.
  app.get('/channel/test', opts, async () => {
    if (testAllRunning) return { success: false, message: '测试已在运行中' };
    testAllRunning = true;
    void (async () => {
      try {
        const rows = [...(await listEnabledChannels(ctx.db)), ...(await ctx.db.selectFrom('channels').selectAll().where('deleted_at', 'is', null).where('status', '=', 3).execute())];
        for (const row of rows) await testChannel(ctx, row);
      } finally {
        testAllRunning = false;
      }
    })();
    return ok();
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
  app.get('/channel/test/:id', opts, async (req) => {
    const channel = await service.loadChannel(ctx, parse(IdParam, req.params).id);
    return testChannel(ctx, channel, parse(TestQuery, req.query).model);
  });
  app.get('/channel/update_balance/:id', opts, async (req) => {
    const channel = await service.loadChannel(ctx, parse(IdParam, req.params).id);
    const balance = await queryBalance(ctx, channel);
    if (balance === null) return { success: false, message: '该渠道类型不支持查询余额', balance: 0 };
    return { success: true, message: '', balance };
  });
  app.get('/channel/:id', opts, async (req) => ok(toChannelJson(await service.loadChannel(ctx, parse(IdParam, req.params).id), true)));
  app.post('/channel/', opts, async (req) => ok(await service.createChannels(ctx, parse(ChannelBody, req.body))));
  app.put('/channel/', opts, async (req) => ok(toChannelJson(await service.updateChannelById(ctx, parse(UpdateChannelBody, req.body)), true)));
  app.delete('/channel/:id', opts, async (req) => ok(await service.deleteChannels(ctx, [parse(IdParam, req.params).id])));
}
