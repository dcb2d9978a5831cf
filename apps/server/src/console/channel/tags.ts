import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CHANNEL_STATUS, IdParam, ROLE, UpdateChannelBody } from '@one-hub/contract';
import { channelColumns } from './service.js';
import type { NewChannel } from '../../db/repos/channels.js';
import type { AppContext } from '../../app-context.js';
import { HubError, notFound } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { EVENTS } from '../../cache/events.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { toChannelJson } from './channel-json.js';

const TagParam = z.object({ tag: z.string().trim().min(1).max(64) });
const PriorityBody = z.object({ type: z.literal('priority', { error: 'invalid type' }), value: z.coerce.number().int().min(0) });
const StatusParam = TagParam.extend({ status: z.enum(['enable', 'disable'], { error: 'invalid status' }) });

/** Tag operations act on every live channel carrying the tag (tags have no table of their own). */
export function registerChannelTagRoutes(app: FastifyInstance, ctx: AppContext): void {
  const opts = { preHandler: requireRole(ctx, ROLE.admin) };
  const tagged = (tag: string) => ctx.db.selectFrom('channels').where('deleted_at', 'is', null).where('tag', '=', tag);
  const changed = () => ctx.store.publish(EVENTS.channels, '');

  app.get('/channel_tag/_all', opts, async () => {
    const rows = await ctx.db.selectFrom('channels').select('tag').distinct().where('deleted_at', 'is', null).where('tag', '!=', '').orderBy('tag').execute();
    return ok(rows.map((r) => ({ id: 0, tag: r.tag })));
  });
  app.get('/channel_tag/:tag/list', opts, async (req) => {
    const rows = await tagged(parse(TagParam, req.params).tag).selectAll().orderBy('id').execute();
    return ok(rows.map((r) => toChannelJson(r, true)));
  });
  // Replaces the tag's key set (one channel per key) and applies the sent fields to every channel of the tag.
  app.put('/channel_tag/:tag', opts, async (req) => {
    const { tag } = parse(TagParam, req.params);
    const body = parse(UpdateChannelBody.extend({ id: z.coerce.number().int().optional() }), req.body);
    const keys = [...new Set((body.key ?? '').split('\n').map((k) => k.trim()).filter(Boolean))];
    if (!keys.length) throw new HubError(400, 'key不能为空');
    const members = await tagged(tag).selectAll().orderBy('id').execute();
    if (!members.length) throw notFound('tag不存在');
    const { key: _key, id: _id, name: _name, ...shared } = body;
    const patch = channelColumns(shared);
    const now = nowSeconds();
    await ctx.db.transaction().execute(async (trx) => {
      const gone = members.filter((m) => !keys.includes(m.key)).map((m) => m.id);
      if (gone.length) await trx.updateTable('channels').set({ deleted_at: now }).where('id', 'in', gone).execute();
      const known = new Set(members.map((m) => m.key));
      const template = members[0];
      let n = members.length;
      for (const key of keys.filter((k) => !known.has(k))) {
        const { id: _tid, ...copy } = template;
        await trx.insertInto('channels').values({ ...copy, ...(patch as NewChannel), key, name: `${body.name ?? template.name}_${++n}`, used_quota: 0, balance: 0, created_time: now, test_time: 0, response_time: 0 }).execute();
      }
      if (Object.keys(patch).length) await trx.updateTable('channels').set(patch).where('deleted_at', 'is', null).where('tag', '=', tag).execute();
    });
    await changed();
    return ok();
  });
  app.put('/channel_tag/:tag/priority', opts, async (req) => {
    const { tag } = parse(TagParam, req.params);
    const { value } = parse(PriorityBody, req.body);
    await ctx.db.updateTable('channels').set({ priority: value }).where('deleted_at', 'is', null).where('tag', '=', tag).execute();
    await changed();
    return ok();
  });
  app.put('/channel_tag/:tag/status/:status', opts, async (req) => {
    const { tag, status } = parse(StatusParam, req.params);
    const enable = status === 'enable';
    await ctx.db
      .updateTable('channels')
      .set(enable ? { status: CHANNEL_STATUS.enabled, disabled_source: '', disabled_reason: null } : { status: CHANNEL_STATUS.manuallyDisabled, disabled_source: 'manual' })
      .where('deleted_at', 'is', null)
      .where('tag', '=', tag)
      .execute();
    await changed();
    return ok();
  });
  app.delete('/channel_tag/:tag/disabled', opts, async (req) => {
    const { tag } = parse(TagParam, req.params);
    const r = await ctx.db.updateTable('channels').set({ deleted_at: nowSeconds() }).where('deleted_at', 'is', null).where('tag', '=', tag).where('status', 'in', [2, 3]).executeTakeFirst();
    await changed();
    return ok(Number(r.numUpdatedRows));
  });
  app.delete('/channel_tag/:tag', opts, async (req) => {
    const { tag } = parse(TagParam, req.params);
    const r = await ctx.db.updateTable('channels').set({ deleted_at: nowSeconds() }).where('deleted_at', 'is', null).where('tag', '=', tag).executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw notFound('tag不存在');
    await changed();
    return ok(Number(r.numUpdatedRows));
  });
  app.delete('/channel/:id/tag', opts, async (req) => {
    const { id } = parse(IdParam, req.params);
    const r = await ctx.db.updateTable('channels').set({ tag: '' }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw new HubError(404, '渠道不存在');
    return ok();
  });
}
