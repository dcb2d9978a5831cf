import { z } from 'zod';
import { text } from '@one-hub/contract';
import type { HubChunk, HubRequest, HubResponse } from './types.js';
import { FormatError } from '../shared/errors.js';
import { tagged } from '../shared/tagged.js';

/*
 * Lenient wire schemas: they check what conversion and billing read and keep
 * every other field (loose objects). Types come from ./types.ts.
 */
const part = tagged({
  text: z.looseObject({ text: z.string() }),
  image_url: z.looseObject({ image_url: z.looseObject({ url: z.string() }) }),
  input_audio: z.looseObject({ input_audio: z.looseObject({ data: z.string(), format: z.string() }) }),
  file: z.looseObject({ file: z.looseObject({ file_data: z.string().optional(), file_id: z.string().optional() }) }),
});
const content = z.union([z.string(), z.array(part), z.null()], { error: 'must be a string, an array of content parts or null' });

const toolCall = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string().optional() }),
});

const tool = tagged({ function: z.looseObject({ function: z.looseObject({ name: z.string(), parameters: z.looseObject({}).optional() }) }) });
const toolChoice = z.union([z.string(), z.looseObject({ type: z.string(), function: z.looseObject({ name: z.string() }) })], { error: 'must be a string or {type, function:{name}}' });
const responseFormat = tagged({ json_schema: z.looseObject({ json_schema: z.looseObject({}) }) });

export const chatMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: content.optional(),
  tool_calls: z.array(toolCall).optional(),
  tool_call_id: z.string().optional(),
});

export const chatRequestSchema = z.looseObject({
  model: text().min(1),
  messages: z.array(chatMessageSchema).min(1),
  stream: z.boolean().optional(),
  max_tokens: z.number().int().nonnegative().optional().nullable(),
  max_completion_tokens: z.number().int().nonnegative().optional().nullable(),
  temperature: z.number().optional().nullable(),
  top_p: z.number().optional().nullable(),
  stop: z.union([z.string(), z.array(z.string())]).optional().nullable(),
  tools: z.array(tool).optional().nullable(),
  tool_choice: toolChoice.optional(),
  response_format: responseFormat.optional().nullable(),
  reasoning_effort: z.string().optional().nullable(),
  reasoning: z.looseObject({ effort: z.string().optional(), max_tokens: z.number().int().nonnegative().optional() }).optional().nullable(),
  n: z.number().int().positive().max(128).optional().nullable(),
});

export const openAIUsageSchema = z.looseObject({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  total_tokens: z.number().optional(),
});

export const chatResponseSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(z.looseObject({ index: z.number().optional(), message: z.looseObject({}).optional() })),
  usage: openAIUsageSchema.optional().nullable(),
});

export const chatChunkSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(z.looseObject({ index: z.number().optional(), delta: z.looseObject({}).optional() })).optional(),
  usage: openAIUsageSchema.optional().nullable(),
});

/** Zod failure → FormatError naming the first bad field. */
export function parseWith<T>(schema: z.ZodType, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data as T;
  const issue = r.error.issues[0];
  const field = issue.path.join('.') || what;
  throw new FormatError(`${what}: ${field}: ${issue.message}`, field);
}

export const parseHubRequest = (v: unknown): HubRequest => parseWith<HubRequest>(chatRequestSchema, v, 'request');
export const parseHubResponse = (v: unknown): HubResponse => parseWith<HubResponse>(chatResponseSchema, v, 'response');
export const parseHubChunk = (v: unknown): HubChunk => parseWith<HubChunk>(chatChunkSchema, v, 'chunk');
