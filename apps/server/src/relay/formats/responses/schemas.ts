import { z } from 'zod';
import { parseWith } from '../openai/schemas.js';
import type { ResponsesRequest } from './types.js';

const parts = z.array(z.looseObject({ type: z.string() }));
const item = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.union([z.string(), parts]).optional(),
  output: z.union([z.string(), parts]).optional(),
  arguments: z.string().optional(),
});

export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(item)]).optional(),
  instructions: z.string().nullable().optional(),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  max_output_tokens: z.number().int().positive().nullable().optional(),
  temperature: z.number().nullable().optional(),
  top_p: z.number().nullable().optional(),
  stream: z.boolean().optional(),
  previous_response_id: z.string().nullable().optional(),
});

export const parseResponsesRequest = (v: unknown): ResponsesRequest => parseWith<ResponsesRequest>(responsesRequestSchema, v, 'request');
