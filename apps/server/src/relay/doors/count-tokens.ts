import type { FastifyRequest } from 'fastify';
import { HubError } from '../../common/errors.js';
import { authenticate, checkModelAllowed } from '../pipeline/flow/caller.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { callerGroup, type DoorInput } from '../pipeline/flow/prepare.js';
import type { Endpoint } from '../providers/types.js';
import { doorToHub } from '../bridge/request.js';
import { countChat } from '../tokenizer.js';
import { upstreamMessageTokens } from './count-upstream.js';

/**
 * Local token count for count_tokens / countTokens: the real tokenizer over the
 * converted request, unless an Anthropic channel answers the exact count first
 * (ClaudeCountTokensForward). Free: no hold, no log, no rate-limit hit.
 */
export async function countDoorTokens(state: RelayState, req: FastifyRequest, door: Endpoint, input: DoorInput): Promise<number> {
  const caller = await authenticate(state.ctx, state.callers, req, input.reader);
  const body = req.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HubError(400, 'request body must be a JSON object');
  const json = body as Record<string, unknown>;
  // Gemini's countTokens may wrap the request in generateContentRequest.
  const request = (json.generateContentRequest as Record<string, unknown> | undefined) ?? json;
  const model = input.model ?? (typeof json.model === 'string' ? json.model : '');
  if (!model) throw new HubError(400, 'field model is required', { code: 'invalid_parameter' });
  checkModelAllowed(caller, model);
  if (door === 'messages' && !Array.isArray(request.messages)) throw new HubError(400, 'field messages is required', { code: 'invalid_parameter' });
  if (door === 'generateContent' && !Array.isArray(request.contents)) throw new HubError(400, 'field contents is required', { code: 'invalid_parameter' });
  if (door === 'messages' && state.ctx.options.get('ClaudeCountTokensForward')) {
    const exact = await upstreamMessageTokens(state, req, callerGroup(caller), model, request);
    if (exact !== null) return exact;
  }
  // count_tokens bodies carry no max_tokens, which the Messages schema otherwise requires.
  const hub = doorToHub(door, door === 'messages' ? { max_tokens: 1, ...request, model } : { ...request, model }, model, false);
  return countChat(model, hub.messages, hub.tools);
}
