import { HubError } from '../../common/errors.js';
import {
  anthropicRequestToHub, FormatError, GEMINI_BLOCK_NONE_SAFETY, geminiRequestToHub, hubRequestToAnthropic, hubRequestToGemini, parseAnthropicRequest, parseGeminiRequest,
  parseHubRequest, parseResponsesRequest, responsesRequestToHub, type HubRequest, type ResponsesRequest,
} from '../formats/index.js';
import type { Dialect, Endpoint } from '../providers/types.js';
import { unknownPrevious, type HistoryItem } from './responses-history.js';

/** Endpoints that speak a chat dialect, so any chat channel can serve them through conversion. */
export const CHAT_DOORS: ReadonlySet<Endpoint> = new Set<Endpoint>(['chat/completions', 'responses', 'messages', 'generateContent']);

/** The endpoint each dialect receives converted chat requests on. */
export const DIALECT_ENDPOINT: Record<Dialect, Endpoint> = {
  openai: 'chat/completions',
  anthropic: 'messages',
  gemini: 'generateContent',
};

export interface ConvertSettings {
  claudeDefaultMaxTokens: (model: string) => number;
  claudeBudgetPercentage: number;
  /** GeminiOpenThink: the (upstream) models whose converted requests ask Gemini to include its thoughts. */
  geminiOpenThink: (model: string) => boolean;
}

/** Asks Gemini for its thoughts, unless the request itself already said whether it wants them. */
function withThoughts(body: Record<string, unknown>): Record<string, unknown> {
  const config = (body.generationConfig ?? {}) as Record<string, unknown>;
  const thinking = (config.thinkingConfig ?? {}) as Record<string, unknown>;
  if (thinking.includeThoughts !== undefined) return body;
  return { ...body, generationConfig: { ...config, thinkingConfig: { ...thinking, includeThoughts: true } } };
}

/** Converter failures are the caller's fault: 400 in the door's own shape. */
export function asBadRequest<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof FormatError) {
      const named = !error.field || error.message.includes(`${error.field}:`);
      throw new HubError(400, named ? error.message : `${error.field}: ${error.message}`, { type: 'invalid_request_error', code: 'invalid_request' });
    }
    if (error && typeof error === 'object' && 'issues' in error) throw new HubError(400, `invalid request: ${String((error as { message?: unknown }).message)}`, { type: 'invalid_request_error', code: 'invalid_request' });
    throw error;
  }
}

/** A door's request body → the hub (OpenAI chat) request; `history` is the stored conversation behind previous_response_id. */
export function doorToHub(door: Endpoint, body: Record<string, unknown>, model: string, stream: boolean, history?: HistoryItem[]): HubRequest {
  return asBadRequest(() => {
    switch (door) {
      // The converters' shapes are checked here, on the way into conversion only.
      case 'chat/completions':
        return parseHubRequest(body);
      case 'messages':
        return anthropicRequestToHub(parseAnthropicRequest(body)).value;
      case 'generateContent':
        return geminiRequestToHub(parseGeminiRequest(body), { model, stream }).value;
      case 'responses': {
        const req = parseResponsesRequest(body);
        if (req.previous_response_id && !history) throw unknownPrevious(req.previous_response_id);
        const previousMessages = history && responsesRequestToHub({ model: req.model, input: history as ResponsesRequest['input'] }).value.messages;
        return responsesRequestToHub(req, { previousMessages }).value;
      }
      default:
        throw new HubError(400, `endpoint ${door} cannot be converted`, { code: 'unsupported_endpoint' });
    }
  });
}

/** The hub request → the body a channel of `dialect` expects (model set to the upstream name). */
export function hubToDialect(dialect: Dialect, hub: HubRequest, model: string, stream: boolean, settings: ConvertSettings): Record<string, unknown> {
  return asBadRequest(() => {
    switch (dialect) {
      case 'openai': {
        const out: Record<string, unknown> = { ...hub, model, stream };
        if (stream) out.stream_options = { include_usage: true };
        else delete out.stream_options;
        return out;
      }
      case 'anthropic': {
        const value = hubRequestToAnthropic({ ...hub, model, stream }, {
          defaultMaxTokens: settings.claudeDefaultMaxTokens(model),
          budgetPercentage: settings.claudeBudgetPercentage,
        }).value;
        return { ...value, model, stream } as unknown as Record<string, unknown>;
      }
      case 'gemini': {
        // As the original does for converted requests: Google's default filters off (relay.md §5.5).
        const value = hubRequestToGemini({ ...hub, model, stream }, { safetySettings: [...GEMINI_BLOCK_NONE_SAFETY] }).value as unknown as Record<string, unknown>;
        return settings.geminiOpenThink(model) ? withThoughts(value) : value;
      }
    }
  });
}
