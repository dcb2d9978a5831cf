import { z } from 'zod';
import { parseWith } from '../openai/schemas.js';
import type { AnthropicRequest, AnthropicResponse, AnthropicStreamEvent } from './types.js';

const block = z.looseObject({ type: z.string() });
const content = z.union([z.string(), z.array(block)]);

export const anthropicRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content })).min(1),
  system: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().optional(),
  top_k: z.number().int().optional(),
  stream: z.boolean().optional(),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  tool_choice: z.looseObject({ type: z.enum(['auto', 'any', 'tool', 'none']) }).optional(),
  thinking: z.looseObject({ type: z.string(), budget_tokens: z.number().int().optional() }).optional(),
});

export const anthropicResponseSchema = z.looseObject({
  id: z.string(),
  content: z.array(block),
  stop_reason: z.string().nullable().optional(),
  usage: z.looseObject({}).optional(),
});

export const anthropicStreamEventSchema = z.looseObject({ type: z.string() });

export const parseAnthropicRequest = (v: unknown): AnthropicRequest => parseWith<AnthropicRequest>(anthropicRequestSchema, v, 'request');
export const parseAnthropicResponse = (v: unknown): AnthropicResponse => parseWith<AnthropicResponse>(anthropicResponseSchema, v, 'response');
export const parseAnthropicEvent = (v: unknown): AnthropicStreamEvent => parseWith<AnthropicStreamEvent>(anthropicStreamEventSchema, v, 'event');
