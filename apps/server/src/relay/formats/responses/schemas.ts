import { z } from 'zod';
import { text as cleanText } from '@one-hub/contract';
import { parseWith } from '../openai/schemas.js';
import { tagged } from '../shared/tagged.js';
import type { ResponsesRequest } from './types.js';

const text = z.looseObject({ text: z.string() });
const parts = z.array(tagged({
  input_text: text,
  output_text: text,
  refusal: z.looseObject({ refusal: z.string() }),
  input_image: z.looseObject({ image_url: z.string().nullable().optional() }),
  input_file: z.looseObject({ file_data: z.string().optional(), file_id: z.string().optional() }),
}));
const textOrParts = z.union([z.string(), parts], { error: 'must be a string or an array of content parts' });
const item = tagged({
  message: z.looseObject({ role: z.enum(['system', 'developer', 'user', 'assistant']), content: textOrParts }),
  function_call: z.looseObject({ call_id: z.string(), name: z.string(), arguments: z.string() }),
  function_call_output: z.looseObject({ call_id: z.string(), output: textOrParts }),
  reasoning: z.looseObject({ summary: z.array(text).optional(), content: z.array(text).nullable().optional() }),
}, 'message');

export const responsesRequestSchema = z.looseObject({
  model: cleanText().min(1),
  input: z.union([z.string(), z.array(item)]).optional(),
  instructions: z.string().nullable().optional(),
  tools: z.array(tagged({ function: z.looseObject({ name: z.string() }) })).optional(),
  tool_choice: z.union([z.string(), z.looseObject({ type: z.string() })], { error: 'must be a string or an object' }).optional(),
  text: z.looseObject({ format: tagged({ json_schema: z.looseObject({ name: z.string() }) }).optional() }).nullable().optional(),
  reasoning: z.looseObject({ effort: z.string().nullable().optional() }).nullable().optional(),
  max_output_tokens: z.number().int().positive().nullable().optional(),
  temperature: z.number().nullable().optional(),
  top_p: z.number().nullable().optional(),
  stream: z.boolean().optional(),
  previous_response_id: z.string().nullable().optional(),
});

export const parseResponsesRequest = (v: unknown): ResponsesRequest => parseWith<ResponsesRequest>(responsesRequestSchema, v, 'request');
