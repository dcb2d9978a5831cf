import { z } from 'zod';
import { parseWith } from '../openai/schemas.js';
import type { GeminiRequest, GeminiResponse } from './types.js';

const part = z.looseObject({});
const content = z.looseObject({ role: z.string().optional(), parts: z.array(part) });

/** Request parts as the converter reads them (Gemini parts carry no type tag: the field present decides). */
const requestPart = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).optional(),
  fileData: z.looseObject({ mimeType: z.string().optional(), fileUri: z.string() }).optional(),
  functionCall: z.looseObject({ name: z.string(), id: z.string().optional() }).optional(),
  functionResponse: z.looseObject({ name: z.string(), id: z.string().optional() }).optional(),
  executableCode: z.looseObject({ code: z.string(), language: z.string().optional() }).optional(),
  codeExecutionResult: z.looseObject({ output: z.string().optional() }).optional(),
});
const requestContent = z.looseObject({ role: z.string().optional(), parts: z.array(requestPart) });

export const geminiRequestSchema = z.looseObject({
  contents: z.array(requestContent).min(1),
  systemInstruction: z.looseObject({ parts: z.array(requestPart) }).optional(),
  tools: z.array(z.looseObject({ functionDeclarations: z.array(z.looseObject({ name: z.string() })).optional() })).optional(),
  toolConfig: z.looseObject({
    functionCallingConfig: z.looseObject({ mode: z.string().optional(), allowedFunctionNames: z.array(z.string()).optional() }).optional(),
  }).optional(),
  safetySettings: z.array(z.unknown()).optional(),
  generationConfig: z.looseObject({
    temperature: z.number().optional(),
    topP: z.number().optional(),
    topK: z.number().optional(),
    maxOutputTokens: z.number().int().optional(),
    stopSequences: z.array(z.string()).optional(),
    candidateCount: z.number().int().optional(),
    responseMimeType: z.string().optional(),
    thinkingConfig: z.looseObject({ thinkingLevel: z.string().optional(), thinkingBudget: z.number().int().optional() }).optional(),
  }).optional(),
});

/** The cheap check at the door (see openai/door-schemas.ts); parts are checked deeply only when converted. */
export const geminiDoorSchema = z.looseObject({
  contents: z.array(z.looseObject({ role: z.string().optional(), parts: z.array(part, { error: 'must be an array of parts' }) }), { error: 'must be an array of contents' }),
  systemInstruction: z.looseObject({ parts: z.array(part, { error: 'must be an array of parts' }) }).optional(),
  tools: z.array(z.looseObject({}), { error: 'must be an array of tools' }).optional(),
  generationConfig: z.looseObject({ maxOutputTokens: z.number().int().nonnegative().max(1_073_741_823).optional() }).optional(),
});

export const geminiResponseSchema = z.looseObject({
  candidates: z.array(z.looseObject({ content: content.partial().optional(), finishReason: z.string().optional() })).optional(),
  usageMetadata: z.looseObject({}).optional(),
});

export const parseGeminiRequest = (v: unknown): GeminiRequest => parseWith<GeminiRequest>(geminiRequestSchema, v, 'request');
export const parseGeminiResponse = (v: unknown): GeminiResponse => parseWith<GeminiResponse>(geminiResponseSchema, v, 'response');
