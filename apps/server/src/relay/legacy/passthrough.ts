import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { outboundRequest as request } from '../../egress/outbound.js';
import { CHANNEL_STATUS, LOG_TYPE, logMessage } from '@one-hub/contract';
import { HubError } from '../../common/errors.js';
import { messageFields, requestLogFields, type RequestFacts } from '../pipeline/accounting/settle.js';
import { findChannelById, type ChannelRow } from '../../db/repos/channels.js';
import { defaultBaseUrl } from '../providers/index.js';
import { AZURE_DEFAULT_VERSION } from '../providers/openai-family/urls.js';
import { authenticate, readKey, type Caller } from '../pipeline/flow/caller.js';
import { checkRate } from '../pipeline/flow/prepare.js';
import { dispatcherFor } from '../pipeline/flow/upstream.js';
import { refuseUnsafe } from '../pipeline/flow/refuse-unsafe.js';
import { writeFailureRow } from '../pipeline/flow/failure-log.js';
import { answerError, isAdmin, outsideFailure, unreachable } from '../../egress/failure.js';
import { parseJsonOr } from '../../common/json.js';
import type { RelayState } from '../pipeline/relay-state.js';

const OPENAI = 1;
const AZURE = 3;

/** Paths relayed untouched to one pinned OpenAI or Azure channel (relay.md §3.8). */
const PREFIXES = ['/v1/files', '/v1/fine_tuning', '/v1/assistants', '/v1/threads', '/v1/batches', '/v1/vector_stores'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Caller headers that describe this hop, not the request, plus the caller's own credentials. */
const DROPPED_REQUEST = new Set(['host', 'authorization', 'x-api-key', 'api-key', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'te', 'trailer']);
const DROPPED_RESPONSE = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'trailer']);

/** The pin of `sk-key#<id>`, also with `#ignore` (which only affects model-routed endpoints). */
function pinOf(req: FastifyRequest, caller: Caller): number {
  if (caller.pinnedChannel) return caller.pinnedChannel;
  const [, directive, flag] = readKey(req).split('#');
  if (flag === 'ignore' && directive && !directive.startsWith('!')) {
    const id = Number(directive);
    if (Number.isInteger(id) && id > 0) return id;
    throw new HubError(403, '无效的渠道 Id', { type: 'one_hub_error' });
  }
  throw new HubError(403, '必须指定渠道', { type: 'one_hub_error', code: 'channel_required' });
}

async function pinnedChannel(state: RelayState, id: number): Promise<ChannelRow> {
  const row = await findChannelById(state.ctx.db, id);
  if (!row) throw new HubError(503, '无效的渠道 Id', { type: 'one_hub_error' });
  if (row.status !== CHANNEL_STATUS.enabled) throw new HubError(503, '该渠道已被禁用', { type: 'one_hub_error' });
  if (row.type !== OPENAI && row.type !== AZURE) throw new HubError(503, 'provider must be of type azureopenai or openai', { type: 'one_hub_error' });
  return row;
}

/**
 * Upstream URL and credentials. The caller's query string is kept (the original dropped
 * it, which broke list filters such as `?purpose=` and `?after=`).
 */
export function passthroughTarget(row: ChannelRow, url: string): { url: string; headers: Record<string, string> } {
  const key = row.key.split('\n')[0].trim();
  const base = (row.base_url || defaultBaseUrl(row.type)).replace(/\/+$/, '');
  if (!base) throw new HubError(503, 'channel has no base URL', { code: 'channel_misconfigured' });
  const [path, query = ''] = url.split(/\?(.*)/s);
  if (row.type === AZURE) {
    const params = new URLSearchParams(query);
    if (!params.has('api-version')) params.set('api-version', row.other?.trim() || AZURE_DEFAULT_VERSION);
    return { url: `${base}/openai${path.replace(/^\/v1/, '')}?${params}`, headers: { 'api-key': key } };
  }
  return { url: `${base}${path}${query ? `?${query}` : ''}`, headers: { authorization: `Bearer ${key}` } };
}

async function relayThrough(state: RelayState, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const startedAt = Date.now();
  const caller = await authenticate(state.ctx, state.callers, req);
  const group = caller.token.group || caller.token.backup_group || caller.user.group;
  const groupRow = state.groups.get(group);
  if (!groupRow) throw new HubError(403, `分组 ${group} 不存在`, { type: 'one_hub_error', code: 'group_not_found' });
  await checkRate(state, caller.user.id, groupRow.api_rate);
  const row = await pinnedChannel(state, pinOf(req, caller));
  const target = passthroughTarget(row, req.url);
  const path = req.url.split('?')[0];
  // Assistants and threads carry messages: checked like the doors (uploaded files are not read).
  if (Buffer.isBuffer(req.body) && state.safety.active() && String(req.headers['content-type'] ?? '').includes('application/json')) {
    refuseUnsafe(state, req, { caller, startedAt, stream: false, group }, { door: path, model: '', body: jsonOrText(req.body) });
  }

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !DROPPED_REQUEST.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  Object.assign(headers, target.headers);
  const body = Buffer.isBuffer(req.body) && req.body.length ? req.body : undefined;
  let res;
  try {
    res = await request(target.url, { method: req.method as (typeof METHODS)[number], headers, body, dispatcher: dispatcherFor(row.proxy, row.key.split('\n')[0].trim()) });
  } catch (error) {
    throw failed(state, { caller, startedAt, stream: false, group }, req, row, unreachable(error));
  }
  if (res.statusCode >= 400) {
    const text = await res.body.text();
    throw failed(state, { caller, startedAt, stream: false, group }, req, row, answerError(res.statusCode, text, parseJsonOr<unknown>(text, undefined)));
  }
  record(state, caller, row, req, path, startedAt);
  reply.status(res.statusCode);
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined && !DROPPED_RESPONSE.has(name)) reply.header(name, value);
  }
  return reply.send(res.body);
}

/** An upstream failure through the one boundary (egress/failure.ts): its error row, and what the caller is told. */
function failed(state: RelayState, facts: RequestFacts, req: FastifyRequest, row: ChannelRow, hub: HubError): HubError {
  const told = outsideFailure(hub, row, false);
  if (state.ctx.options.get('LogErrorEnabled')) {
    writeFailureRow(state, { ...requestLogFields(facts, req.id, req.ip), model_name: '' }, row, hub, told, req.url.split('?')[0]);
  }
  return isAdmin(facts.caller.user.role) ? outsideFailure(hub, row, true) : told;
}

function jsonOrText(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Nothing is billed; the call is counted and logged as `中继:<path>` with its real duration. */
function record(state: RelayState, caller: Caller, row: ChannelRow, req: FastifyRequest, path: string, startedAt: number): void {
  const { user, token } = caller;
  state.recorder.settle({ userId: user.id, tokenId: token.id, unlimited: token.unlimited_quota === 1, channelId: row.id, billed: 0 });
  if (!state.ctx.options.get('LogConsumeEnabled')) return;
  state.recorder.log({
    type: LOG_TYPE.consume,
    ...requestLogFields({ caller, startedAt, stream: false, group: token.group || user.group }, req.id, req.ip),
    channel_id: row.id,
    model_name: '',
    quota: 0,
    ...messageFields(logMessage('relay_passthrough', { path })),
  });
}

/** Files, fine-tuning, assistants, threads, batches, vector stores and model deletion, as raw bytes. */
export async function registerPassthrough(app: FastifyInstance, state: RelayState): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 * 1024 }, (_req, body, done) => done(null, body));
  const handler = (req: FastifyRequest, reply: FastifyReply) => relayThrough(state, req, reply);
  for (const prefix of PREFIXES) {
    app.route({ method: [...METHODS], url: prefix, handler });
    app.route({ method: [...METHODS], url: `${prefix}/*`, handler });
  }
  app.delete('/v1/models/:model', handler);
}
