import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { IdParam, ROLE, text, UpdateChannelBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireStepUp } from '../auth/step-up/service.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { listTagChannels, listTagNames } from '../../db/repos/channel-tags.js';
import { toChannelJson } from './channel-json.js';
import * as tags from './tag-service.js';

const TagParam = z.object({ tag: text().trim().min(1).max(64) });
const PriorityBody = z.object({ type: z.literal('priority', { error: 'invalid type' }), value: z.coerce.number().int().min(0) });
const StatusParam = TagParam.extend({ status: z.enum(['enable', 'disable'], { error: 'invalid status' }) });
const TagBody = UpdateChannelBody.omit({ id: true }).extend({ id: z.coerce.number().int().optional(), key: text().optional() });

/** Channel tag routes (api.md §19), admin only. */
export function registerChannelTagRoutes(app: FastifyInstance, ctx: AppContext): void {
  const opts = { preHandler: requireRole(ctx, ROLE.admin) };
  // Both answers carry the members' full keys (step-up, as GET /channel/:id).
  const reveal = { preHandler: [opts.preHandler, requireStepUp(ctx)] };

  app.get('/channel_tag/_all', opts, async () => ok((await listTagNames(ctx.db)).map((tag) => ({ id: 0, tag }))));
  app.get('/channel_tag/:tag/list', reveal, async (req) => {
    return ok((await listTagChannels(ctx.db, parse(TagParam, req.params).tag)).map((r) => toChannelJson(r, true)));
  });
  app.get('/channel_tag/:tag', reveal, async (req) => ok(await tags.tagAsChannel(ctx, parse(TagParam, req.params).tag)));
  app.put('/channel_tag/:tag', opts, async (req) => {
    const { id: _id, ...body } = parse(TagBody, req.body);
    await tags.updateTag(ctx, parse(TagParam, req.params).tag, body);
    return ok();
  });
  app.put('/channel_tag/:tag/priority', opts, async (req) => {
    await tags.setTagPriority(ctx, parse(TagParam, req.params).tag, parse(PriorityBody, req.body).value);
    return ok();
  });
  app.put('/channel_tag/:tag/status/:status', opts, async (req) => {
    const { tag, status } = parse(StatusParam, req.params);
    await tags.setTagStatus(ctx, tag, status === 'enable');
    return ok();
  });
  // The original answered an empty body here (§31.3); this answers the envelope with the count.
  app.delete('/channel_tag/:tag/disabled', opts, async (req) => ok(await tags.deleteTag(ctx, parse(TagParam, req.params).tag, true)));
  app.delete('/channel_tag/:tag', opts, async (req) => ok(await tags.deleteTag(ctx, parse(TagParam, req.params).tag, false)));
  app.delete('/channel/:id/tag', opts, async (req) => {
    await tags.untagChannel(ctx, parse(IdParam, req.params).id);
    return ok();
  });
}
