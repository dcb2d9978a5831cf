/**
 * Format conversion library: OpenAI Chat Completions is the hub; Anthropic
 * Messages, Gemini generateContent and the OpenAI Responses API convert to and
 * from it. Pure functions (zod only); every converter returns `warnings` naming
 * what it could not carry; stream mappers are per-request state machines.
 */
export * from './shared/errors.js';
export * from './shared/ids.js';
export { sseFrame, typedSseFrame } from './shared/sse.js';
export { stripSchemaKeys, parseDataUrl } from './shared/json.js';

export type * from './openai/types.js';
export * from './openai/schemas.js';
export * from './openai/usage.js';
export { reasoningOf, effortFromBudget } from './openai/reasoning.js';

export type * from './anthropic/types.js';
export * from './anthropic/schemas.js';
export { usageFromAnthropic, usageToAnthropic, mergeAnthropicUsage } from './anthropic/usage.js';
export { stopReasonToHub, finishReasonToAnthropic } from './anthropic/stop-reason.js';
export { anthropicRequestToHub } from './anthropic/request-to-hub.js';
export { hubRequestToAnthropic, thinkingBudget, type HubToAnthropicOptions } from './anthropic/request-from-hub.js';
export { anthropicResponseToHub, hubResponseToAnthropic } from './anthropic/response.js';
export { createAnthropicToHubStream, type AnthropicToHubStream } from './anthropic/stream-to-hub.js';
export { createHubToAnthropicStream, type HubToAnthropicStream } from './anthropic/stream-from-hub.js';

export type * from './gemini/types.js';
export * from './gemini/schemas.js';
export { usageFromGemini, usageToGemini } from './gemini/usage.js';
export { finishReasonToHub as geminiFinishReasonToHub, finishReasonToGemini } from './gemini/finish-reason.js';
export { geminiRequestToHub } from './gemini/request-to-hub.js';
export { hubRequestToGemini, GEMINI_SCHEMA_DROP, type HubToGeminiOptions } from './gemini/request-from-hub.js';
export { geminiResponseToHub, hubResponseToGemini } from './gemini/response.js';
export { createGeminiToHubStream, type GeminiToHubStream } from './gemini/stream-to-hub.js';
export { createHubToGeminiStream, type HubToGeminiStream } from './gemini/stream-from-hub.js';
export { createJsonArrayFramer, GEMINI_BLOCK_NONE_SAFETY } from './gemini/framing.js';

export type * from './responses/types.js';
export * from './responses/schemas.js';
export { responsesRequestToHub } from './responses/request-to-hub.js';
export { hubResponseToResponses } from './responses/response-from-hub.js';
export { createHubToResponsesStream, type HubToResponsesStream } from './responses/stream-from-hub.js';
