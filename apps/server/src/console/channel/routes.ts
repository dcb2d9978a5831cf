import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BatchIdsBody, CHANNEL_TYPES, ChannelBody, ChannelListQuery, IdParam, PageQuery, ROLE, UpdateChannelBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { CHANNEL_ORDER_COLUMNS, channelListQuery } from '../../db/repos/channels.js';
import { queryBalance, testChannel } from '../../relay/channel-ops.js';
import { toChannelJson } from './channel-json.js';
import * as service from './service.js';

const TestQuery = z.object({ model: z.string().trim().max(100).optional() });

export function registerChannelRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = requireRole(ctx, ROLE.admin);
  const opts = { preHandler: admin };

  app.get('/channel/types', opts, async () => ok(CHANNEL_TYPES));
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
