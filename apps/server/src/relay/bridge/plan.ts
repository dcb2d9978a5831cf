import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { parseJsonOr } from '../../common/json.js';
import type { HubRequest } from '../formats/index.js';
import type { Endpoint, ProviderAdapter } from '../providers/types.js';
import { CHAT_DOORS, DIALECT_ENDPOINT, hubToDialect, type ConvertSettings } from './request.js';

/** How one attempt reaches a channel: the door's body as it is, or converted through the hub. */
export interface AttemptPlan {
  /** Endpoint the adapter is asked to build. */
  endpoint: Endpoint;
  /** Set when the body was converted into the channel's dialect. */
  converted?: Record<string, unknown>;
}

/**
 * Chooses pass-through when the channel speaks the door's format, else conversion through the hub.
 * `chatOnlyResponses`: the channel's `compatible_response` flag (relay.md §3) — serve
 * `/v1/responses` through chat completions even though the adapter has the Responses API.
 */
export function planAttempt(door: Endpoint, adapter: ProviderAdapter, hub: () => HubRequest, upstreamModel: string, stream: boolean, settings: ConvertSettings, chatOnlyResponses = false): AttemptPlan {
  const responsesApi = door === 'responses' || door === 'responses/compact';
  if (adapter.endpoints.has(door) && !(responsesApi && chatOnlyResponses)) return { endpoint: door };
  // Compaction output is OpenAI's encrypted item: nothing converts into it.
  if (door === 'responses/compact') {
    const why = adapter.endpoints.has(door) ? `${adapter.name}, chat completions only` : adapter.name;
    throw new HubError(400, `this channel (${why}) cannot compact: /v1/responses/compact needs an OpenAI channel`, {
      code: 'cannot_compact',
      retryable: true,
    });
  }
  // Interactions are kept by Gemini upstream (ids, steps, previous_interaction_id): nothing converts into them.
  if (door === 'interactions') {
    throw new HubError(400, `this channel (${adapter.name}) does not serve interactions: /v1beta/interactions needs a Gemini channel`, {
      code: 'cannot_interact',
      retryable: true,
    });
  }
  const target = DIALECT_ENDPOINT[adapter.dialect];
  if (!CHAT_DOORS.has(door) || !adapter.endpoints.has(target)) {
    throw new HubError(400, `this channel type (${adapter.name}) does not serve ${door}`, { code: 'unsupported_endpoint', retryable: true });
  }
  return { endpoint: target, converted: hubToDialect(adapter.dialect, hub(), upstreamModel, stream, settings) };
}

/** Conversion settings read from the options (Claude's required max_tokens and thinking budget). */
export function convertSettings(ctx: AppContext): ConvertSettings {
  return {
    claudeDefaultMaxTokens(model) {
      const table = parseJsonOr<Record<string, number>>(ctx.options.get('ClaudeDefaultMaxTokens'), {});
      const value = table[model] ?? table.default;
      return typeof value === 'number' && value > 0 ? value : 8192;
    },
    get claudeBudgetPercentage() {
      return ctx.options.get('ClaudeBudgetTokensPercentage') || 0.8;
    },
    geminiOpenThink(model) {
      return parseJsonOr<Record<string, unknown>>(ctx.options.get('GeminiOpenThink'), {})[model] === true;
    },
  };
}
