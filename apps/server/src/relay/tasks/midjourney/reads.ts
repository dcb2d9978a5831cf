import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { outboundRequest as request } from '../../../egress/outbound.js';
import { findChannelById } from '../../../db/repos/channels.js';
import type { MidjourneyRow } from '../../../db/repos/tasks.js';
import { findChannelMidjourney, findMidjourneyByMjId, findOwnMidjourney, listOwnMidjourneys } from '../../../db/repos/task-rows.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import type { Db } from '../../../db/index.js';
import { dispatcherFor } from '../../pipeline/flow/upstream.js';
import { checkLink, taskFacts } from '../facts.js';
import { baseOf, callTaskUpstream, channelKey } from '../upstream.js';
import { MJ_CHANNEL_TYPE, mjError } from './mapping.js';
import { applyUpstream } from './poll.js';
import { notifySignature } from './submit.js';
import { answerError, outsideFailure, scrubIdentity, unreachable } from '../../../egress/failure.js';
import { IMAGE_LINK_SECONDS, clientTask, imageLink, type UpstreamMjTask } from './task-json.js';

/** Signed links to tasks' images, valid for an hour, one channel lookup per channel. */
export async function imageLinker(state: RelayState) {
  const base = state.ctx.options.get('ServerAddress');
  const channels = new Map<number, Awaited<ReturnType<typeof findChannelById>>>();
  const expires = Math.floor(Date.now() / 1000) + IMAGE_LINK_SECONDS;
  return async (rows: MidjourneyRow[]) => {
    for (const r of rows) if (!channels.has(r.channel_id)) channels.set(r.channel_id, await findChannelById(state.ctx.db, r.channel_id));
    return (row: MidjourneyRow) => {
      const channel = channels.get(row.channel_id);
      return channel ? imageLink(base, channel, row.mj_id, expires) : '';
    };
  };
}

async function ownTask(state: RelayState, req: FastifyRequest): Promise<MidjourneyRow> {
  const facts = await taskFacts(state, req, 'midjourney', false);
  const row = await findOwnMidjourney(state.ctx.db, facts.caller.user.id, (req.params as { id: string }).id);
  if (!row) throw mjError(404, '任务不存在', 3);
  return row;
}

export async function fetchTask(state: RelayState, req: FastifyRequest) {
  const row = await ownTask(state, req);
  return clientTask(row, await (await imageLinker(state))([row]));
}

export async function listByCondition(state: RelayState, req: FastifyRequest) {
  const facts = await taskFacts(state, req, 'midjourney', false);
  const ids = (req.body as { ids?: unknown } | undefined)?.ids;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string') || ids.length > 100) throw mjError(400, 'ids 必须是至多 100 个任务 ID 的数组');
  const rows = await listOwnMidjourneys(state.ctx.db, facts.caller.user.id, ids as string[]);
  const link = await (await imageLinker(state))(rows);
  return rows.map((row) => clientTask(row, link));
}

/** The seed of the caller's task, asked from the task's channel (30 s). */
export async function imageSeed(state: RelayState, req: FastifyRequest, reply: FastifyReply) {
  const row = await ownTask(state, req);
  const channel = await findChannelById(state.ctx.db, row.channel_id);
  if (!channel) throw mjError(503, '渠道不存在', 4);
  const answer = await callTaskUpstream(channel, `${baseOf(channel)}/mj/task/${encodeURIComponent(row.mj_id)}/image-seed`, {
    method: 'GET',
    headers: { 'mj-api-secret': channelKey(channel) },
    timeoutMs: 30_000,
  }).catch((error) => {
    throw outsideFailure(unreachable(error), channel, false);
  });
  if (answer.status !== 200 || typeof answer.json?.code !== 'number') throw outsideFailure(answerError(answer.status, answer.text, answer.json), channel, false);
  return reply.send({ ...answer.json, description: scrubIdentity(String(answer.json.description ?? ''), channel, false) });
}

/**
 * A callback from a channel's upstream. The hook URL the gateway handed that channel carries
 * its signature; an update is accepted only for a task of that channel (relay.md §10.12).
 */
export async function notify(state: RelayState, req: FastifyRequest) {
  const q = req.query as { channel?: string; sig?: string };
  const channel = await findChannelById(state.ctx.db, Number(q.channel) || 0);
  const sig = Buffer.from(String(q.sig ?? ''));
  const want = channel && channel.type === MJ_CHANNEL_TYPE ? Buffer.from(notifySignature(channel)) : undefined;
  if (!channel || !want || want.length !== sig.length || !timingSafeEqual(want, sig)) throw mjError(401, 'notify 签名无效', 401);
  const task = req.body as UpstreamMjTask | undefined;
  if (!task || typeof task.id !== 'string') throw mjError(400, '任务 ID 不能为空');
  const row = await findChannelMidjourney(state.ctx.db, channel.id, task.id);
  if (!row) throw mjError(404, '任务不存在', 3);
  await applyUpstream(state, channel, row, task);
  return { code: 1, description: 'success' };
}

/** The task's image, streamed: to its owner (mj-api-secret) or through a signed, unexpired link. */
export async function image(state: RelayState, req: FastifyRequest, reply: FastifyReply) {
  const id = (req.params as { id: string }).id;
  const q = req.query as { expires?: string; sig?: string };
  let row: MidjourneyRow | undefined;
  if (q.sig) {
    const found = await findMidjourneyByMjId(state.ctx.db, id);
    const channel = found && (await findChannelById(state.ctx.db, found.channel_id));
    if (found && channel && checkLink(channel, `image:${id}`, Number(q.expires), q.sig)) row = found;
    if (!row) throw mjError(403, '链接无效或已过期', 403);
  } else row = await ownTask(state, req);
  return streamImage(state.ctx.db, row, reply);
}

/** A `data:` URL's media type and bytes (base64 or percent-encoded); undefined when malformed. */
function decodeDataUrl(url: string): { type: string; body: Buffer } | undefined {
  const m = /^data:([^,]*?)(;base64)?,(.*)$/is.exec(url);
  if (!m) return undefined;
  try {
    return { type: m[1] || 'text/plain;charset=US-ASCII', body: m[2] ? Buffer.from(m[3], 'base64') : Buffer.from(decodeURIComponent(m[3]), 'utf8') };
  } catch {
    return undefined;
  }
}

/** Streams a task's stored image from upstream through the task channel's proxy (the console shows it the same way). */
export async function streamImage(db: Db, row: MidjourneyRow, reply: FastifyReply) {
  if (!row.image_url) throw mjError(404, '任务没有图片', 3);
  if (row.image_url.startsWith('data:')) {
    // An inline image (stored by an upstream that answers with data URLs) is decoded, not fetched.
    const inline = decodeDataUrl(row.image_url);
    if (!inline) throw mjError(502, '图片数据无效', 502);
    reply.header('content-type', inline.type);
    return reply.send(inline.body);
  }
  const channel = await findChannelById(db, row.channel_id);
  const res = await request(row.image_url, { dispatcher: dispatcherFor(channel?.proxy, channel ? channelKey(channel) : '') }).catch((error) => {
    throw outsideFailure(unreachable(error), channel, false);
  });
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw outsideFailure(answerError(res.statusCode, '', undefined), channel, false);
  }
  reply.header('content-type', String(res.headers['content-type'] ?? 'application/octet-stream'));
  reply.header('cache-control', 'private, max-age=3600');
  return reply.send(res.body);
}
