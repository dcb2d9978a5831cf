import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { outboundRequest as request } from '../../../egress/outbound.js';
import { HubError } from '../../../common/errors.js';
import { parseJsonOr } from '../../../common/json.js';
import { findChannelById } from '../../../db/repos/channels.js';
import type { TaskRow } from '../../../db/repos/tasks.js';
import { findOwnTask, pageOwnTasks, updatePendingTask } from '../../../db/repos/task-rows.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import { multipartField } from '../../pipeline/flow/prepare.js';
import { dispatcherFor } from '../../pipeline/flow/upstream.js';
import { submitTask } from '../generic/submit.js';
import { linkedData } from '../generic/links.js';
import { taskFacts } from '../facts.js';
import { callTaskUpstream, channelKey } from '../upstream.js';
import { videos, videoBase, videoHeaders } from './family.js';
import { answerError, outsideFailure, unreachable } from '../../../egress/failure.js';
import { videoFields, videoPlan } from './mapping.js';

const notFound = (id: string) => new HubError(404, `No video found with id '${id.slice(0, 80)}'`, { code: 'not_found' });

/** The caller's own video job and its channel (a second user gets a 404, as for an unknown id). */
async function ownVideo(state: RelayState, req: FastifyRequest, limited = false) {
  const facts = await taskFacts(state, req, 'openai', limited);
  const id = (req.params as { id: string }).id;
  const row = await findOwnTask(state.ctx.db, facts.caller.user.id, 'videos', id);
  if (!row) throw notFound(id);
  const channel = await findChannelById(state.ctx.db, row.channel_id);
  if (!channel) throw new HubError(503, 'the channel of this video is gone', { code: 'channel_not_found' });
  return { facts, row, channel };
}

/** The stored video object; any file URL in it is the gateway's link. */
const view = (state: RelayState, row: TaskRow) => linkedData(state, row, parseJsonOr<Record<string, unknown>>(row.data, { id: row.task_id, object: 'video', status: 'queued' })) as Promise<Record<string, unknown>>;

async function create(state: RelayState, req: FastifyRequest, reply: FastifyReply) {
  const facts = await taskFacts(state, req, 'openai');
  const priced = (model: string) => state.prices.find(model) !== undefined;
  if (Buffer.isBuffer(req.body)) {
    const bytes = req.body;
    const field = (name: string) => multipartField(bytes, name);
    const fields = videoFields({ model: field('model'), prompt: field('prompt'), seconds: field('seconds'), size: field('size') });
    return submitTask(state, facts, videos, videoPlan(fields, priced, {}, { bytes, contentType: String(req.headers['content-type']) }), reply);
  }
  if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) throw new HubError(400, 'request body must be a JSON object');
  const body = req.body as Record<string, unknown>;
  return submitTask(state, facts, videos, videoPlan(videoFields(body), priced, body), reply);
}

/** A remix is a new job on the original's channel, priced like the original. */
async function remix(state: RelayState, req: FastifyRequest, reply: FastifyReply) {
  const { facts, row } = await ownVideo(state, req, true);
  const body = (req.body ?? {}) as Record<string, unknown>;
  const p = parseJsonOr<Record<string, string>>(row.properties, {});
  const fields = videoFields({ model: p.model, seconds: p.seconds, size: p.size, prompt: body.prompt });
  const plan = { ...videoPlan(fields, (m) => state.prices.find(m) !== undefined, body), action: 'remix', path: `/v1/videos/${encodeURIComponent(row.task_id)}/remix`, originTaskId: row.task_id };
  return submitTask(state, facts, videos, plan, reply);
}

/** The video file, piped from upstream as it arrives (never held whole in memory). */
async function content(state: RelayState, req: FastifyRequest, reply: FastifyReply) {
  const { row, channel } = await ownVideo(state, req);
  const variant = (req.query as { variant?: string }).variant;
  const query = variant ? `?variant=${encodeURIComponent(variant)}` : '';
  const res = await request(`${videoBase(channel)}/v1/videos/${encodeURIComponent(row.task_id)}/content${query}`, {
    headers: videoHeaders(channel),
    dispatcher: dispatcherFor(channel.proxy, channelKey(channel)),
  }).catch((error) => {
    throw outsideFailure(unreachable(error), channel, false);
  });
  if (res.statusCode !== 200) {
    const text = await res.body.text();
    throw outsideFailure(answerError(res.statusCode, text, parseJsonOr<unknown>(text, undefined)), channel, false);
  }
  for (const name of ['content-type', 'content-length', 'content-disposition']) if (res.headers[name]) reply.header(name, res.headers[name]);
  return reply.send(res.body);
}

async function remove(state: RelayState, req: FastifyRequest, reply: FastifyReply) {
  const { row, channel } = await ownVideo(state, req);
  const answer = await callTaskUpstream(channel, `${videoBase(channel)}/v1/videos/${encodeURIComponent(row.task_id)}`, { method: 'DELETE', headers: videoHeaders(channel), timeoutMs: 30_000 }).catch((error) => {
    throw outsideFailure(unreachable(error), channel, false);
  });
  if (answer.status !== 200 || !answer.json || typeof answer.json !== 'object') throw outsideFailure(answerError(answer.status, answer.text, answer.json), channel, false);
  // Deleted by its owner: the job ends without a refund, and the poller stops asking.
  await updatePendingTask(state.ctx.db, row.id, { status: 'DELETED', progress: 100 });
  return reply.send(answer.json);
}

async function list(state: RelayState, req: FastifyRequest) {
  const facts = await taskFacts(state, req, 'openai', false);
  const q = req.query as { limit?: string; after?: string; order?: string };
  const limit = Math.min(100, Math.max(1, Number(q.limit) || 20));
  const rows = await pageOwnTasks(state.ctx.db, facts.caller.user.id, 'videos', { limit: limit + 1, afterTaskId: q.after, asc: q.order === 'asc' });
  const data = await Promise.all(rows.slice(0, limit).map((row) => view(state, row)));
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > limit };
}

/** OpenAI's video API (beyond the original), with every read limited to the caller's own jobs. */
export async function registerVideos(app: FastifyInstance, state: RelayState): Promise<void> {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 64 * 1024 * 1024 }, (_req, body, done) => done(null, body));
  app.post('/v1/videos', (req, reply) => create(state, req, reply));
  app.get('/v1/videos', (req) => list(state, req));
  app.get('/v1/videos/:id', async (req) => view(state, (await ownVideo(state, req)).row));
  app.get('/v1/videos/:id/content', (req, reply) => content(state, req, reply));
  app.delete('/v1/videos/:id', (req, reply) => remove(state, req, reply));
  app.post('/v1/videos/:id/remix', (req, reply) => remix(state, req, reply));
}
