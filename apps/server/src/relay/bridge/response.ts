import { HubError } from '../../common/errors.js';
import {
  anthropicResponseToHub, emptyUsage, geminiResponseToHub, hubResponseToAnthropic, hubResponseToGemini, hubResponseToResponses,
  usageFromOpenAI, usageToOpenAI, withServiceTier, type AnthropicResponse, type GeminiResponse, type HubResponse, type ResponsesRequest, type Usage,
} from '../formats/index.js';
import type { Dialect, Endpoint } from '../providers/types.js';

/** A channel's non-stream answer in its own dialect → the hub response and normalised usage. */
export function dialectResponseToHub(dialect: Dialect, json: unknown, model: string): { hub: HubResponse; usage: Usage | null } {
  try {
    switch (dialect) {
      case 'openai': {
        const hub = json as HubResponse;
        if (!Array.isArray(hub?.choices)) throw new Error('no choices');
        return { hub: { ...hub, model }, usage: withServiceTier(usageFromOpenAI(hub.usage), (hub as { service_tier?: unknown }).service_tier) };
      }
      case 'anthropic': {
        const r = anthropicResponseToHub(json as AnthropicResponse, { model });
        return { hub: r.value, usage: r.usage };
      }
      case 'gemini': {
        const r = geminiResponseToHub(json as GeminiResponse, { model });
        return { hub: r.value, usage: r.usage };
      }
    }
  } catch (error) {
    throw new HubError(502, `upstream answer could not be read: ${(error as Error).message}`, { code: 'bad_upstream_response', retryable: true });
  }
}

/** The hub response → the door's own answer shape. `usage` is the normalised record actually billed. */
export function hubToDoorResponse(door: Endpoint, hub: HubResponse, usage: Usage, request: Record<string, unknown>): unknown {
  switch (door) {
    case 'messages':
      return hubResponseToAnthropic(hub, { usage }).value;
    case 'generateContent':
      return hubResponseToGemini(hub, { usage }).value;
    case 'responses':
      return hubResponseToResponses(hub, { usage, request: request as unknown as ResponsesRequest }).value;
    default:
      return { ...hub, usage: usageToOpenAI(usage ?? emptyUsage()) };
  }
}
