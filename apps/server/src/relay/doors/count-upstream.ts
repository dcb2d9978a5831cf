import type { FastifyRequest } from 'fastify';
import type { RelayState } from '../pipeline/relay-state.js';
import { routeTo, type RoutedChannel } from '../pipeline/flow/attempt.js';
import { sendUpstream } from '../pipeline/flow/upstream.js';

/** count_tokens waits this long for upstream before counting locally. */
export const COUNT_TOKENS_TIMEOUT_MS = 2_000;

/** The first channel of the group serving the model (highest tier first) that can count Messages tokens. */
function countingChannel(state: RelayState, group: string, model: string): RoutedChannel | undefined {
  for (const tier of state.selector.index.tiers(group, model)) {
    for (const candidate of tier) {
      if (state.selector.isFrozen(candidate.row.id, model)) continue;
      try {
        const route = routeTo(candidate.row, model);
        if (route.adapter.countTokensRequest) return route;
      } catch {
        // a misconfigured channel cannot count; the next one may
      }
    }
  }
  return undefined;
}

/**
 * Asks an Anthropic channel for the exact count of a Messages body (the caller's
 * anthropic-version and betas go along). Answers null on any failure — no such
 * channel, timeout, error status, unreadable answer — so the caller counts locally.
 */
export async function upstreamMessageTokens(state: RelayState, req: FastifyRequest, group: string, model: string, body: Record<string, unknown>): Promise<number | null> {
  const route = countingChannel(state, group, model);
  if (!route?.adapter.countTokensRequest) return null;
  try {
    const upstream = route.adapter.countTokensRequest(route.target, { ...body, model: route.upstreamModel }, req.headers);
    const res = await sendUpstream(upstream, { proxy: route.row.proxy, proxyKey: route.target.key, signal: AbortSignal.timeout(COUNT_TOKENS_TIMEOUT_MS) });
    const text = await res.body.text();
    if (res.statusCode !== 200) {
      req.log.debug({ channel: route.row.id, status: res.statusCode }, 'count_tokens upstream refused; counting locally');
      return null;
    }
    // Anthropic answers `input_tokens`, Bedrock's CountTokens `inputTokens`.
    const answer = JSON.parse(text) as { input_tokens?: unknown; inputTokens?: unknown };
    const count = answer.input_tokens ?? answer.inputTokens;
    return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null;
  } catch (error) {
    req.log.debug({ channel: route.row.id, err: error }, 'count_tokens upstream failed; counting locally');
    return null;
  }
}
