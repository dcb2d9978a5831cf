import type { z } from 'zod';
import { HubError } from '../../../common/errors.js';
import type { Endpoint } from '../../providers/types.js';
import { chatDoorSchema, completionsDoorSchema, imagesDoorSchema, inputDoorSchema, rerankDoorSchema, responsesDoorSchema, speechDoorSchema } from '../../formats/openai/door-schemas.js';
import { anthropicDoorSchema } from '../../formats/anthropic/schemas.js';
import { geminiDoorSchema } from '../../formats/gemini/schemas.js';
import { batchEmbedDoorSchema, embedContentDoorSchema } from '../../formats/gemini/embed.js';
import { interactionsDoorSchema } from '../../formats/gemini/interactions.js';

const DOOR_SCHEMAS: Partial<Record<Endpoint, z.ZodType>> = {
  'chat/completions': chatDoorSchema,
  completions: completionsDoorSchema,
  embeddings: inputDoorSchema,
  moderations: inputDoorSchema,
  'images/generations': imagesDoorSchema,
  'audio/speech': speechDoorSchema,
  rerank: rerankDoorSchema,
  responses: responsesDoorSchema,
  'responses/compact': responsesDoorSchema,
  'responses/input_tokens': responsesDoorSchema,
  messages: anthropicDoorSchema,
  generateContent: geminiDoorSchema,
  embedContent: embedContentDoorSchema,
  batchEmbedContents: batchEmbedDoorSchema,
  interactions: interactionsDoorSchema,
};

/** Checks a JSON door body's outline; a mismatch is the caller's 400 naming the field (never retried). */
export function checkDoorBody(endpoint: Endpoint, body: Record<string, unknown>): void {
  const schema = DOOR_SCHEMAS[endpoint];
  if (!schema) return;
  const result = schema.safeParse(body);
  if (result.success) return;
  const issue = result.error.issues[0];
  const field = issue.path.join('.');
  throw new HubError(400, `${field ? `${field}: ` : ''}${issue.message}`, { code: 'invalid_request' });
}
