import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HubError } from '../../common/errors.js';
import { isAdmin, outsideFailure } from '../../egress/failure.js';
import { authenticate } from '../pipeline/flow/caller.js';
import { handleRelay } from '../pipeline/flow/handle.js';
import { callerGroup, checkRate } from '../pipeline/flow/prepare.js';
import { routeTo } from '../pipeline/flow/attempt.js';
import { sendUpstream } from '../pipeline/flow/upstream.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { interactionsHeaders, interactionsUrl } from '../providers/gemini/index.js';
import { forgetResponse, interactionKey } from '../responses/owners.js';
import { ownedInteraction } from './owned.js';
import { findBackground } from '../../db/repos/background-responses.js';
import { endBeforeDelete, finishBackground, interactionEnded } from '../responses/background.js';
import { isAgentInteraction } from '../formats/gemini/interactions.js';

type Action = 'retrieve' | 'delete' | 'cancel';

const METHOD: Record<Action, 'GET' | 'DELETE' | 'POST'> = { retrieve: 'GET', delete: 'DELETE', cancel: 'POST' };

/** `POST /{version}/interactions`: a turn on a Gemini channel, passed through and billed on its reported usage. */
function create(state: RelayState, req: FastifyRequest, reply: FastifyReply) {
  const body = req.body as Record<string, unknown> | undefined;
  // Clients may name the model as a resource (`models/gemini-…`); channels list bare names.
  // An agent interaction is routed and priced under the agent's name.
  const named = body && typeof body === 'object' ? (typeof body.model === 'string' ? body.model : isAgentInteraction(body) ? (body.agent as string) : undefined) : undefined;
  const model = named?.replace(/^models\//, '');
  // An agent runs as long as it needs: it is served only under a price an admin set for it, never the fallback.
  if (body && isAgentInteraction(body) && model && !state.prices.find(model)) {
    throw new HubError(404, `The agent '${model}' does not exist: it has no price on this gateway`, { code: 'NOT_FOUND' });
  }
  return handleRelay(state, req, reply, 'interactions', { reader: 'gemini', model });
}

/**
 * Retrieve, delete or cancel the caller's own interaction: the call goes to the channel that
 * produced it, untouched (query included: `stream`, `last_event_id`, `include_input`). Free:
 * the turn was billed when it was created.
 */
async function forward(state: RelayState, req: FastifyRequest, reply: FastifyReply, action: Action) {
  const caller = await authenticate(state.ctx, state.callers, req, 'gemini');
  const group = state.groups.get(callerGroup(caller));
  if (group) await checkRate(state, caller.user.id, group.api_rate);
  const id = (req.params as { id: string }).id;
  const channelId = await ownedInteraction(state.ctx, caller.user.id, id);
  const row = state.selector.index.byId.get(channelId)?.row;
  if (!row) throw new HubError(400, `interaction ${id} is kept by a channel that is no longer available`, { code: 'FAILED_PRECONDITION' });
  const route = routeTo(row, '');
  const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
  const target = { url: interactionsUrl(route.target, `${encodeURIComponent(id)}${action === 'cancel' ? '/cancel' : ''}`) + query, headers: interactionsHeaders(route.target, req.headers), body: undefined };
  const admin = isAdmin(caller.user.role);
  // A running background interaction is ended before it is deleted, so it is billed as upstream reports.
  if (action === 'delete') await endBeforeDelete(state, row, id, 'interaction').catch((e) => state.ctx.log.warn({ err: e, id }, 'background interaction not ended before delete'));
  let res;
  try {
    res = await sendUpstream(target, { method: METHOD[action], proxy: row.proxy, proxyKey: route.target.key });
  } catch (error) {
    throw outsideFailure(error instanceof HubError ? error : new HubError(502, (error as Error).message), row, admin);
  }
  const contentType = String(res.headers['content-type'] ?? 'application/json');
  if (res.statusCode >= 400) throw outsideFailure(route.adapter.mapError(res.statusCode, await res.body.text()), row, admin);
  if (action === 'delete') await forgetResponse(state.ctx, interactionKey(id));
  // A streamed retrieval (`?stream=true`) goes on as upstream sends it.
  if (contentType.includes('text/event-stream')) return reply.status(res.statusCode).header('content-type', contentType).header('cache-control', 'no-cache').send(res.body);
  const text = await res.body.text();
  // A retrieve or cancel that sees a background interaction end settles it (once: see finishBackground).
  if (action !== 'delete') await settleSeen(state, id, text);
  return reply.status(res.statusCode).header('content-type', contentType).send(text);
}

/** Settles the caller's background interaction from an answer that shows it ended. */
async function settleSeen(state: RelayState, id: string, text: string): Promise<void> {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return;
  }
  if (!interactionEnded(json.status)) return;
  const row = await findBackground(state.ctx.db, interactionKey(id));
  if (row && row.kind === 'interaction' && row.status === 'pending') await finishBackground(state, row, json);
}

/**
 * Gemini's Interactions API (`/v1beta/interactions`, and `/v1` beside it) on Gemini channels.
 * The gateway records which user and channel own each interaction, so a follow-up naming
 * `previous_interaction_id` reaches the channel that keeps it, and another user's id is a 404.
 */
export function registerInteractions(app: FastifyInstance, state: RelayState): void {
  for (const prefix of ['/v1beta', '/v1']) {
    app.post(`${prefix}/interactions`, (req, reply) => create(state, req, reply));
    app.get(`${prefix}/interactions/:id`, (req, reply) => forward(state, req, reply, 'retrieve'));
    // The SDK sends delete and cancel with a JSON content type and no body.
    app.delete(`${prefix}/interactions/:id`, { config: { bodyless: true } }, (req, reply) => forward(state, req, reply, 'delete'));
    app.post(`${prefix}/interactions/:id/cancel`, { config: { bodyless: true } }, (req, reply) => forward(state, req, reply, 'cancel'));
  }
}
