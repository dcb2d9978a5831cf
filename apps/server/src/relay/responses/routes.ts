import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HubError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import { responseNotFound, type HistoryItem } from '../bridge/responses-history.js';
import { adapterFor } from '../providers/index.js';
import { authenticate } from '../pipeline/flow/caller.js';
import { callerGroup, checkRate } from '../pipeline/flow/prepare.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { findResponseOwner, forgetResponse } from './owners.js';
import { pageOf } from './items.js';
import { findBackground } from '../../db/repos/background-responses.js';
import { backgroundPoller, callKeeper, endBeforeDelete, finishBackground, TERMINAL } from './background.js';
import { isLocalId, serveLocal, startLocalRuns } from './background-local.js';

type Action = 'retrieve' | 'delete' | 'cancel' | 'input_items';

/** Response ids are short tokens; anything else cannot be one the gateway handed out. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The kept record of a response the caller owns; an unknown or another user's id is the same 404. */
async function ownedRecord(state: RelayState, req: FastifyRequest) {
  const caller = await authenticate(state.ctx, state.callers, req);
  const groupRow = state.groups.get(callerGroup(caller));
  if (groupRow) await checkRate(state, caller.user.id, groupRow.api_rate);
  const id = (req.params as { id: string }).id;
  if (!ID.test(id)) throw new HubError(400, 'response_id must be 1–64 letters, digits, "_" or "-"', { type: 'invalid_request_error', code: 'invalid_parameter' });
  const row = await findResponseOwner(state.ctx, id);
  if (!row || Number(row.user_id) !== caller.user.id || row.expires_at <= nowSeconds()) throw responseNotFound(id);
  return { id, row };
}

/** A response an OpenAI-style channel keeps: the call goes to that channel, untouched. */
async function forward(state: RelayState, req: FastifyRequest, reply: FastifyReply, id: string, channelId: number, action: Action) {
  const channel: ChannelRow | undefined = state.selector.index.byId.get(channelId)?.row;
  if (!channel) throw new HubError(409, `response ${id} is kept by a channel that is no longer available`, { type: 'invalid_request_error', code: 'response_channel_unavailable' });
  const streamed = action === 'retrieve' && String((req.query as Record<string, unknown>).stream) === 'true';
  let res;
  try {
    if (action === 'delete') await endBeforeDelete(state, channel, id);
    res = await callKeeper(channel, req.method as 'GET' | 'POST' | 'DELETE', req.url, streamed ? 'text/event-stream' : 'application/json');
  } catch (error) {
    throw new HubError(502, `请求上游地址失败: ${(error as Error).message}`, { code: 'http_request_failed', type: 'upstream_error' });
  }
  const contentType = String(res.headers['content-type'] ?? 'application/json');
  if (streamed && res.statusCode < 400 && contentType.includes('text/event-stream')) {
    // A background response's events from `starting_after` on, as upstream replays them.
    reply.hijack();
    reply.raw.writeHead(res.statusCode, { 'content-type': contentType, 'cache-control': 'no-cache', 'x-oneapi-request-id': req.id });
    for await (const chunk of res.body) reply.raw.write(chunk);
    reply.raw.end();
    return reply;
  }
  const text = await res.body.text();
  if (res.statusCode >= 400) throw adapterFor(channel.type)!.mapError(res.statusCode, text);
  if (action === 'delete') await forgetResponse(state.ctx, id);
  if (action === 'retrieve' || action === 'cancel') await settleIfEnded(state, id, text);
  return reply.status(res.statusCode).header('content-type', contentType).send(text);
}

/** A background response the client found ended (by retrieve or cancel) is settled now, once, instead of at the next poll. */
async function settleIfEnded(state: RelayState, id: string, text: string): Promise<void> {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return;
  }
  if (json.background !== true || !TERMINAL.has(String(json.status))) return;
  const row = await findBackground(state.ctx.db, id);
  if (row) await finishBackground(state, row, json);
}

/** A converted response: the gateway answers from what it kept, as OpenAI would. */
async function serve(state: RelayState, req: FastifyRequest, id: string, items: string, response: string | null, action: Action) {
  if (!response) throw responseNotFound(id); // kept before responses were recorded whole
  const kept = JSON.parse(response) as { output?: HistoryItem[] };
  switch (action) {
    case 'retrieve':
      if (String((req.query as Record<string, unknown>).stream) === 'true') {
        throw new HubError(400, 'This response cannot be streamed because it was not created with background=true.', { type: 'invalid_request_error' });
      }
      return kept;
    case 'delete':
      await forgetResponse(state.ctx, id);
      return { id, object: 'response', deleted: true };
    case 'cancel':
      // Only background responses can be cancelled, and the gateway runs none in the background.
      throw new HubError(400, 'Cannot cancel a synchronous response.', { type: 'invalid_request_error' });
    case 'input_items': {
      const all = JSON.parse(items) as HistoryItem[];
      const input = all.slice(0, all.length - (kept.output?.length ?? 0));
      return pageOf(id, input, req.query as Record<string, unknown>);
    }
  }
}

async function handle(state: RelayState, req: FastifyRequest, reply: FastifyReply, action: Action) {
  const { id, row } = await ownedRecord(state, req);
  if (row.items && isLocalId(id)) {
    const local = await findBackground(state.ctx.db, id);
    if (local?.kind === 'local') return serveLocal(state, req, reply, local, action, () => serve(state, req, id, row.items, row.response, action));
  }
  if (!row.items) return forward(state, req, reply, id, Number(row.channel_id), action);
  return serve(state, req, id, row.items, row.response, action);
}

/**
 * Stored Responses: retrieve, delete, cancel and input_items. Parametric routes only, so the
 * static `/v1/responses/<name>` paths (input_tokens, compact) keep precedence.
 */
export function registerStoredResponses(app: FastifyInstance, state: RelayState): void {
  // Background responses left pending by an earlier process are settled from start-up on.
  backgroundPoller(state);
  startLocalRuns(state);
  app.get('/v1/responses/:id', (req, reply) => handle(state, req, reply, 'retrieve'));
  app.delete('/v1/responses/:id', (req, reply) => handle(state, req, reply, 'delete'));
  app.post('/v1/responses/:id/cancel', (req, reply) => handle(state, req, reply, 'cancel'));
  app.get('/v1/responses/:id/input_items', (req, reply) => handle(state, req, reply, 'input_items'));
}
