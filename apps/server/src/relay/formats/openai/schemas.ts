import { z } from 'zod';
import type { HubChunk, HubRequest, HubResponse } from './types.js';
import { FormatError } from '../shared/errors.js';

/*
 * Lenient wire schemas: they check what conversion and billing read and keep
 * every other field (loose objects). Types come from ./types.ts.
 */
const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const imagePart = z.looseObject({ type: z.literal('image_url'), image_url: z.looseObject({ url: z.string() }) });
const otherPart = z.looseObject({ type: z.string() });
const content = z.union([z.string(), z.array(z.union([textPart, imagePart, otherPart])), z.null()]);

const toolCall = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string().optional() }),
});

export const chatMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: content.optional(),
  tool_calls: z.array(toolCall).optional(),
  tool_call_id: z.string().optional(),
});

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  stream: z.boolean().optional(),
  max_tokens: z.number().int().nonnegative().optional().nullable(),
  max_completion_tokens: z.number().int().nonnegative().optional().nullable(),
  temperature: z.number().optional().nullable(),
  top_p: z.number().optional().nullable(),
  stop: z.union([z.string(), z.array(z.string())]).optional().nullable(),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
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
