import type { FastifyInstance } from 'fastify';
import { ChannelCheckRequest, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError, notFound } from '../../common/errors.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { findChannelById } from '../../db/repos/channels.js';
import { adapterFor } from '../providers/index.js';
import { checkModel } from './checks.js';
import { PROBE_PNG, recordImageAccess } from './image.js';

/** Heartbeat events while a slow probe runs (relay.md §7.4); tests shorten it. */
export const channelCheckTiming = { heartbeatMs: 10_000 };

/** The channel check stream (api.md §28) and the probe image it shows to upstreams. */
export function registerChannelCheckRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/sse/channel/check', { preHandler: requireRole(ctx, ROLE.admin) }, async (req, reply) => {
    const { id, models } = parse(ChannelCheckRequest, req.body ?? {});
    const channel = await findChannelById(ctx.db, id);
    if (!channel) throw notFound('channel not found');
    if (!adapterFor(channel.type)) throw new HubError(503, 'channel not implemented');

    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    const send = (type: string, data: unknown) => {
      if (!raw.destroyed) raw.write(`event: message\ndata: ${JSON.stringify({ type, data })}\n\n`);
    };
    const beat = setInterval(() => send('heartbeat', 'ping'), channelCheckTiming.heartbeatMs);
    try {
      for (const model of models) {
        if (raw.destroyed) break; // the admin closed the page
        send('result', await checkModel(ctx, channel, model));
      }
      send('done', 'completed');
    } catch (error) {
      req.log.error({ err: error }, 'channel check failed');
      send('error', (error as Error).message);
    } finally {
      clearInterval(beat);
      raw.end();
    }
  });

  app.get('/image/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!(await recordImageAccess(ctx, id, String(req.headers['user-agent'] ?? ''), req.ip))) throw notFound('image not found');
    return reply.header('content-type', 'image/png').header('content-disposition', 'inline').send(PROBE_PNG);
  });
}
