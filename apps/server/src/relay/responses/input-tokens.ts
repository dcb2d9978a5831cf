import type { FastifyRequest } from 'fastify';
import { HubError } from '../../common/errors.js';
import { authenticate, checkModelAllowed } from '../pipeline/flow/caller.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { callerGroup } from '../pipeline/flow/prepare.js';
import { checkDoorBody } from '../pipeline/flow/door-body.js';
import { authorizeUpstream, buildUpstream, routeTo, withModel, type RoutedChannel } from '../pipeline/flow/attempt.js';
import { sendUpstream } from '../pipeline/flow/upstream.js';
import { doorToHub } from '../bridge/request.js';
import { loadPrevious } from '../bridge/responses-history.js';
import { countChat } from '../tokenizer.js';
import { COUNT_TOKENS_TIMEOUT_MS } from '../doors/count-upstream.js';

const ENDPOINT = 'responses/input_tokens';

/** The first channel of the group serving the model (highest tier first) whose upstream has the Responses API's counter. */
function countingChannel(state: RelayState, group: string, model: string): RoutedChannel | undefined {
  for (const tier of state.selector.index.tiers(group, model)) {
    for (const candidate of tier) {
      // A `compatible_response` channel serves Responses through chat completions: its upstream has no counter.
      if (candidate.row.compatible_response === 1 || state.selector.isFrozen(candidate.row.id, model)) continue;
      try {
        const route = routeTo(candidate.row, model);
        if (route.adapter.endpoints.has(ENDPOINT)) return route;
      } catch {
        // a misconfigured channel cannot count; the next one may
      }
    }
  }
  return undefined;
}

/** Upstream's count of the body (model mapped), or null on any failure so the caller counts locally. */
async function upstreamCount(req: FastifyRequest, route: RoutedChannel, body: Record<string, unknown>, model: string): Promise<number | null> {
  try {
    const built = buildUpstream(route, ENDPOINT, withModel(body, route.upstreamModel, model), { stream: false, model: route.upstreamModel });
    const upstream = await authorizeUpstream(route, built, route.row.proxy);
    const res = await sendUpstream(upstream, { proxy: route.row.proxy, proxyKey: route.target.key, signal: AbortSignal.timeout(COUNT_TOKENS_TIMEOUT_MS) });
    const text = await res.body.text();
    if (res.statusCode !== 200) {
      req.log.debug({ channel: route.row.id, status: res.statusCode }, 'input_tokens upstream refused; counting locally');
      return null;
    }
    const count = (JSON.parse(text) as { input_tokens?: unknown }).input_tokens;
    return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null;
  } catch (error) {
    req.log.debug({ channel: route.row.id, err: error }, 'input_tokens upstream failed; counting locally');
    return null;
  }
}

/**
 * `POST /v1/responses/input_tokens`: an OpenAI channel serving the model answers the exact
 * count; otherwise (or when it fails) the local tokenizer counts the request as the gateway
 * would convert it, kept history included. Free: no hold, no log, no rate-limit hit.
 */
export async function countResponsesInput(state: RelayState, req: FastifyRequest): Promise<number> {
  const caller = await authenticate(state.ctx, state.callers, req, 'openai');
  const body = req.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HubError(400, 'request body must be a JSON object');
  const json = body as Record<string, unknown>;
  const model = typeof json.model === 'string' ? json.model.split('#')[0].trim() : '';
  if (!model) throw new HubError(400, 'field model is required', { code: 'invalid_parameter' });
  checkModelAllowed(caller, model);
  checkDoorBody(ENDPOINT, json);
  const route = countingChannel(state, callerGroup(caller), model);
  if (route) {
    const exact = await upstreamCount(req, route, json, model);
    if (exact !== null) return exact;
  }
  const { history } = await loadPrevious(state.ctx, caller.user.id, json.previous_response_id);
  const hub = doorToHub('responses', { ...json, model }, model, false, history);
  return countChat(model, hub.messages, hub.tools);
}
