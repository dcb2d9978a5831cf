import { z } from 'zod';
import type { Usage } from '../openai/usage.js';
import { isObject } from '../shared/json.js';
import type { GeminiModalityCount, GeminiUsageMetadata } from './types.js';
import { usageFromGemini } from './usage.js';

/** The Interactions API's per-modality count `{modality: "text", tokens}`. */
interface ModalityTokens {
  modality?: unknown;
  tokens?: unknown;
}

/** An Interactions `usage` object (snake_case totals). */
export interface InteractionUsage {
  total_input_tokens?: number;
  total_output_tokens?: number;
  total_cached_tokens?: number;
  total_thought_tokens?: number;
  total_tool_use_tokens?: number;
  input_tokens_by_modality?: ModalityTokens[];
  output_tokens_by_modality?: ModalityTokens[];
  cached_tokens_by_modality?: ModalityTokens[];
}

const modalities = (list: unknown): GeminiModalityCount[] | undefined =>
  Array.isArray(list)
    ? (list as ModalityTokens[]).map((m) => ({ modality: String(m?.modality ?? '').toUpperCase(), tokenCount: typeof m?.tokens === 'number' ? m.tokens : 0 }))
    : undefined;

/**
 * Interactions usage → Usage. The totals follow generateContent's usageMetadata (cached inside
 * input; thought and tool-use tokens beside input and output), so they are read as it is.
 */
export function usageFromInteraction(raw: unknown): Usage | null {
  if (!isObject(raw)) return null;
  const u = raw as InteractionUsage;
  const metadata: GeminiUsageMetadata = {
    promptTokenCount: u.total_input_tokens,
    candidatesTokenCount: u.total_output_tokens,
    cachedContentTokenCount: u.total_cached_tokens,
    thoughtsTokenCount: u.total_thought_tokens,
    toolUsePromptTokenCount: u.total_tool_use_tokens,
    promptTokensDetails: modalities(u.input_tokens_by_modality),
    candidatesTokensDetails: modalities(u.output_tokens_by_modality),
    cacheTokensDetails: modalities(u.cached_tokens_by_modality),
  } as GeminiUsageMetadata;
  return usageFromGemini(metadata);
}

/** The text a caller sent in an interaction (input and system instruction), for sizing the hold. */
export function interactionPromptText(body: Record<string, unknown>): string {
  const input = typeof body.input === 'string' ? body.input : body.input === undefined ? '' : JSON.stringify(body.input);
  const system = typeof body.system_instruction === 'string' ? body.system_instruction : '';
  return system ? `${system}\n${input}` : input;
}

/** `generation_config.max_output_tokens`, the interaction's output cap. */
export function interactionMaxOutput(body: Record<string, unknown>): unknown {
  return (body.generation_config as { max_output_tokens?: unknown } | undefined)?.max_output_tokens;
}

/**
 * The outline of an Interactions create body the gateway relies on: a `model`, or an `agent`
 * (agent interactions, such as deep research, run in the background and are priced under the
 * agent's name). A `background` interaction is held at its worst case and settled when it ends
 * (responses/background.ts).
 */
export const interactionsDoorSchema = z
  .looseObject({
    model: z.string({ error: 'must be a model name' }).optional(),
    agent: z.string({ error: 'must be an agent name' }).optional(),
    previous_interaction_id: z.string({ error: 'must be an interaction id' }).optional(),
    stream: z.boolean({ error: 'must be a boolean' }).optional(),
    store: z.boolean({ error: 'must be a boolean' }).optional(),
    background: z.boolean({ error: 'must be a boolean' }).optional(),
    system_instruction: z.string({ error: 'must be a string' }).optional(),
    generation_config: z.looseObject({ max_output_tokens: z.number().int().nonnegative().max(1_073_741_823).optional() }).optional(),
  })
  .refine((b) => b.model !== undefined || b.agent !== undefined, { error: 'name a model or an agent', path: ['model'] });

/** An agent interaction: it names an agent and no model (the agent's name routes and prices it). */
export const isAgentInteraction = (body: Record<string, unknown>): boolean => body.model === undefined && typeof body.agent === 'string';
