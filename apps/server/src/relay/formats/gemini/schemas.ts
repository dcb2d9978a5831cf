import { z } from 'zod';
import { parseWith } from '../openai/schemas.js';
import type { GeminiRequest, GeminiResponse } from './types.js';

const part = z.looseObject({});
const content = z.looseObject({ role: z.string().optional(), parts: z.array(part) });

export const geminiRequestSchema = z.looseObject({
  contents: z.array(content).min(1),
  systemInstruction: z.looseObject({ parts: z.array(part) }).optional(),
  tools: z.array(z.looseObject({})).optional(),
  toolConfig: z.looseObject({}).optional(),
  generationConfig: z.looseObject({
    temperature: z.number().optional(),
    topP: z.number().optional(),
    topK: z.number().optional(),
    maxOutputTokens: z.number().int().optional(),
    stopSequences: z.array(z.string()).optional(),
  }).optional(),
});

export const geminiResponseSchema = z.looseObject({
  candidates: z.array(z.looseObject({ content: content.partial().optional(), finishReason: z.string().optional() })).optional(),
  usageMetadata: z.looseObject({}).optional(),
});

export const parseGeminiRequest = (v: unknown): GeminiRequest => parseWith<GeminiRequest>(geminiRequestSchema, v, 'request');
export const parseGeminiResponse = (v: unknown): GeminiResponse => parseWith<GeminiResponse>(geminiResponseSchema, v, 'response');
