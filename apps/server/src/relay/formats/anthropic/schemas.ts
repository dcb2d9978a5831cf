import { z } from 'zod';
import { text as cleanText } from '@one-hub/contract';
import { parseWith } from '../openai/schemas.js';
import { tagged } from '../shared/tagged.js';
import type { AnthropicRequest, AnthropicResponse, AnthropicStreamEvent } from './types.js';

const block = z.looseObject({ type: z.string() });
const source = tagged({
  base64: z.looseObject({ media_type: z.string(), data: z.string() }),
  url: z.looseObject({ url: z.string() }),
  text: z.looseObject({ data: z.string() }),
});
const media = z.looseObject({ source });
const text = z.looseObject({ text: z.string() });
/** Blocks as the converter reads them; other block types pass with their tag checked. */
const requestBlock = tagged({
  text,
  image: media,
  document: media,
  thinking: z.looseObject({ thinking: z.string(), signature: z.string().optional() }),
  redacted_thinking: z.looseObject({ data: z.string() }),
  tool_use: z.looseObject({ id: z.string(), name: z.string() }),
  tool_result: z.looseObject({
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(tagged({ text, image: media, document: media }))], { error: 'must be a string or an array of blocks' }).optional(),
  }),
});
const content = z.union([z.string(), z.array(requestBlock)], { error: 'must be a string or an array of content blocks' });
const doorContent = z.union([z.string(), z.array(block)], { error: 'must be a string or an array of content blocks' });

export const anthropicRequestSchema = z.looseObject({
  model: cleanText().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content })).min(1),
  system: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().optional(),
  top_k: z.number().int().optional(),
  stream: z.boolean().optional(),
  tools: z.array(z.looseObject({ name: z.string(), type: z.string().optional(), input_schema: z.looseObject({}).optional() })).optional(),
  tool_choice: tagged({ tool: z.looseObject({ name: z.string() }), auto: z.looseObject({}), any: z.looseObject({}), none: z.looseObject({}) }).optional(),
  thinking: z.looseObject({ type: z.string(), budget_tokens: z.number().int().optional() }).optional(),
  metadata: z.looseObject({ user_id: z.string().nullable().optional() }).nullable().optional(),
});

/** The cheap check at the door (see openai/door-schemas.ts); blocks are checked deeply only when converted. */
export const anthropicDoorSchema = z.looseObject({
  max_tokens: z.number().int().positive().max(1_073_741_823),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content: doorContent }), { error: 'must be an array of messages' }),
  system: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))], { error: 'must be a string or an array of text blocks' }).optional(),
  stream: z.boolean().optional(),
  tools: z.array(z.looseObject({}), { error: 'must be an array of tools' }).optional(),
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
