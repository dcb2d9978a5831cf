import { z } from 'zod';

/*
 * Door schemas: the cheap check every request through an OpenAI-style door gets before
 * routing. They hold only the fields the gateway itself reads (billing estimate, routing,
 * limits) and the outline of the body; the converters' deeper shapes are checked only when
 * a body is converted (schemas.ts). Everything else passes through untouched.
 */
const int = (min: number, max: number) => z.number().int().min(min).max(max);
const text = z.string();
const texts = z.union([z.string(), z.array(z.unknown())], { error: 'must be a string or an array' });
const nullableNumber = z.number().nullable().optional();
const objectList = z.array(z.looseObject({}), { error: 'must be an array of objects' });

export const chatDoorSchema = z.looseObject({
  messages: z.array(z.looseObject({
    role: z.string(),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() })), z.null()], { error: 'must be a string, an array of content parts or null' }).optional(),
  }), { error: 'must be an array of messages' }),
  stream: z.boolean().nullable().optional(),
  max_tokens: int(0, 1_073_741_823).nullable().optional(),
  max_completion_tokens: int(0, 1_073_741_823).nullable().optional(),
  n: int(1, 128).nullable().optional(),
  temperature: nullableNumber,
  top_p: nullableNumber,
  tools: objectList.nullable().optional(),
  stream_options: z.looseObject({}).nullable().optional(),
});

export const completionsDoorSchema = z.looseObject({
  prompt: texts.optional(),
  stream: z.boolean().nullable().optional(),
  max_tokens: int(0, 1_073_741_823).nullable().optional(),
  n: int(1, 128).nullable().optional(),
});

export const inputDoorSchema = z.looseObject({ input: texts });

export const imagesDoorSchema = z.looseObject({
  prompt: text,
  n: int(1, 10).nullable().optional(),
  size: text.nullable().optional(),
  quality: text.nullable().optional(),
  style: text.nullable().optional(),
});

export const speechDoorSchema = z.looseObject({ input: text, voice: z.unknown().optional(), speed: nullableNumber });

export const rerankDoorSchema = z.looseObject({
  query: z.union([text, z.looseObject({})], { error: 'must be a string' }),
  documents: z.array(z.unknown(), { error: 'must be an array' }),
  top_n: int(0, 1_000_000).nullable().optional(),
});

export const responsesDoorSchema = z.looseObject({
  input: z.union([z.string(), objectList], { error: 'must be a string or an array of items' }).optional(),
  instructions: z.string().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  max_output_tokens: int(0, 1_073_741_823).nullable().optional(),
  tools: objectList.nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
});
