import type { Faults, StreamPacing } from './fake-http.js';

/**
 * How a Gemini fake (Google AI, Vertex) answers, chosen per credential. Usage
 * is fixed so billing is predictable: 10 uncached prompt tokens (plus the
 * cached ones, which Gemini counts inside promptTokenCount), one candidate
 * token per word, one thought token per thought word, 10 per function call.
 */
export interface GeminiBehaviour extends StreamPacing, Faults {
  status?: number;
  /** Replaces the error body of `status` (default: Google's error shape). */
  errorBody?: unknown;
  retryAfter?: number;
  delayMs?: number;
  /** Text of the answer (streamed word by word). */
  content?: string;
  /** Think this (counted in thoughtsTokenCount); the thought part is sent only when the request sets includeThoughts, as Gemini does. */
  thought?: string;
  /** Call a function when the request declares some (name defaults to the first declaration; mode ANY forces a call anyway). */
  functionCall?: { name?: string; args?: Record<string, unknown> };
  /** cachedContentTokenCount reported (inside promptTokenCount). */
  cachedTokens?: number;
  /** Leave usageMetadata out of answers and streams. */
  noUsage?: boolean;
  /** Reads of a background interaction that still find it `in_progress` before it completes (default 1). */
  backgroundReads?: number;
}

export const GEMINI_PROMPT_TOKENS = 10;
export const GEMINI_CALL_TOKENS = 10;
/** The thoughtSignature the fake puts on its first function call (and on text after thinking). */
export const GEMINI_SIGNATURE = 'CiQBVKhc7oFakeThoughtSignature0';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function googleErrorBody(code: number, message?: string) {
  const status = STATUS_NAMES[code] ?? 'UNKNOWN';
  return { error: { code, message: message ?? `fake ${status}`, status } };
}

export interface GeminiError {
  code: number;
  message: string;
}

const invalid = (message: string): GeminiError => ({ code: 400, message });

/** Finds `$schema` / `additionalProperties` anywhere in an OpenAPI-subset schema; answers the offending path. */
function unsupportedSchemaField(schema: any, path: string): string | null {
  if (!schema || typeof schema !== 'object') return null;
  if (Array.isArray(schema)) {
    for (const [i, item] of schema.entries()) {
      const found = unsupportedSchemaField(item, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$schema' || k === 'additionalProperties') return `Invalid JSON payload received. Unknown name "${k}" at '${path}': Cannot find field.`;
    // `properties` maps names to schemas: a property may itself be called "additionalProperties".
    const found = k === 'properties' && v && typeof v === 'object'
      ? Object.entries(v).map(([name, s]) => unsupportedSchemaField(s, `${path}.properties[${JSON.stringify(name)}].value`)).find(Boolean) ?? null
      : unsupportedSchemaField(v, `${path}.${k}`);
    if (found) return found;
  }
  return null;
}

/**
 * Gemini 3 models reject a current-turn function call without its
 * thoughtSignature (the turn starts at the last user message with text).
 */
function missingSignature(contents: any[]): string | null {
  let turnStart = 0;
  contents.forEach((c, i) => {
    if (c.role === 'user' && (c.parts ?? []).some((p: any) => typeof p.text === 'string')) turnStart = i;
  });
  for (const [i, c] of contents.entries()) {
    if (i < turnStart || c.role !== 'model') continue;
    const first = (c.parts ?? []).find((p: any) => p.functionCall);
    if (first && !first.thoughtSignature) return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall.name}\` , position ${i + 1}.`;
  }
  return null;
}

/** Checks a generateContent body the way the API does. */
export function checkGeminiRequest(body: any, model: string): GeminiError | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return invalid('Invalid JSON payload received.');
  if (!Array.isArray(body.contents) || body.contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified\n');
  for (const [i, c] of body.contents.entries()) {
    if (c?.role !== undefined && c.role !== 'user' && c.role !== 'model') return invalid('Please use a valid role: user, model.');
    if (!Array.isArray(c?.parts) || c.parts.length === 0) return invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`);
  }
  for (const [t, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    const declarations = tool.functionDeclarations ?? tool.function_declarations ?? [];
    for (const [d, decl] of declarations.entries()) {
      const found = unsupportedSchemaField(decl.parameters, `tools[${t}].function_declarations[${d}].parameters`);
      if (found) return invalid(found);
    }
  }
  if (model.startsWith('gemini-3')) {
    const missing = missingSignature(body.contents);
    if (missing) return invalid(missing);
  }
  return null;
}

export interface GeminiAnswer {
  thought?: string;
  /** The request asked for thought summaries (`thinkingConfig.includeThoughts`). */
  showThoughts: boolean;
  words: string[];
  call?: { name: string; args: Record<string, unknown> };
  finishReason: 'STOP' | 'MAX_TOKENS';
}

function declarations(body: any): any[] {
  return (Array.isArray(body.tools) ? body.tools : []).flatMap((t: any) => t.functionDeclarations ?? t.function_declarations ?? []);
}

/** What the model "says" for a checked request. */
export function geminiAnswer(body: any, b: GeminiBehaviour): GeminiAnswer {
  let words = (b.content ?? 'Hello from the fake Gemini').split(' ');
  let finishReason: GeminiAnswer['finishReason'] = 'STOP';
  const max = body.generationConfig?.maxOutputTokens;
  if (typeof max === 'number' && words.length > max) {
    words = words.slice(0, max);
    finishReason = 'MAX_TOKENS';
  }
  const decls = declarations(body);
  const mode = body.toolConfig?.functionCallingConfig?.mode;
  let call: GeminiAnswer['call'];
  if (decls.length > 0 && mode !== 'NONE' && finishReason === 'STOP' && (b.functionCall || mode === 'ANY')) {
    const allowed: string[] | undefined = body.toolConfig?.functionCallingConfig?.allowedFunctionNames;
    call = { name: b.functionCall?.name ?? allowed?.[0] ?? decls[0].name, args: b.functionCall?.args ?? {} };
  }
  return { thought: b.thought, showThoughts: body.generationConfig?.thinkingConfig?.includeThoughts === true, words, call, finishReason };
}

function usage(a: GeminiAnswer, b: GeminiBehaviour, candidates: number) {
  const cached = b.cachedTokens ?? 0;
  const thoughts = a.thought ? a.thought.split(' ').length : 0;
  const prompt = GEMINI_PROMPT_TOKENS + cached;
  return {
    promptTokenCount: prompt,
    ...(candidates > 0 ? { candidatesTokenCount: candidates } : {}),
    totalTokenCount: prompt + candidates + thoughts,
    ...(cached ? { cachedContentTokenCount: cached } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    ...(cached ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cached }] } : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  };
}

function candidateTokens(a: GeminiAnswer) {
  return a.words.length + (a.call ? GEMINI_CALL_TOKENS : 0);
}

function callPart(a: GeminiAnswer) {
  return { functionCall: { name: a.call!.name, args: a.call!.args }, thoughtSignature: GEMINI_SIGNATURE };
}

function envelope(model: string, parts: unknown[], usageMetadata: unknown, finishReason?: string) {
  return {
    candidates: [{ content: { parts, role: 'model' }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    ...(usageMetadata ? { usageMetadata } : {}),
    modelVersion: model,
    responseId: 'FakeGeminiResponse0001',
  };
}

/** The non-stream generateContent answer. */
export function geminiResponse(model: string, a: GeminiAnswer, b: GeminiBehaviour) {
  const parts: unknown[] = [];
  if (a.thought && a.showThoughts) parts.push({ text: a.thought, thought: true });
  if (a.words.length > 0) parts.push({ text: a.words.join(' ') });
  if (a.call) parts.push(callPart(a));
  return envelope(model, parts, b.noUsage ? undefined : usage(a, b, candidateTokens(a)), a.finishReason);
}

/** The chunks of a streamed answer; `content` marks the text chunks that pacing counts. */
export function geminiChunks(model: string, a: GeminiAnswer, b: GeminiBehaviour): { chunk: unknown; content: boolean }[] {
  const chunks: { chunk: unknown; content: boolean }[] = [];
  const use = (n: number) => (b.noUsage ? undefined : usage(a, b, n));
  if (a.thought && a.showThoughts) chunks.push({ chunk: envelope(model, [{ text: a.thought, thought: true }], use(0)), content: false });
  for (const [i, w] of a.words.entries()) {
    const last = i === a.words.length - 1 && !a.call;
    chunks.push({ chunk: envelope(model, [{ text: i === 0 ? w : ` ${w}` }], use(last ? candidateTokens(a) : 0), last ? a.finishReason : undefined), content: true });
  }
  if (a.call) chunks.push({ chunk: envelope(model, [callPart(a)], use(candidateTokens(a)), a.finishReason), content: false });
  if (chunks.length === 0) chunks.push({ chunk: envelope(model, [{ text: '' }], use(0), a.finishReason), content: false });
  return chunks;
}

/** Rough but stable count for countTokens: one token per 4 characters of the contents. */
export function geminiCountTokens(body: any): number {
  const request = body.generateContentRequest ?? body;
  return Math.ceil(JSON.stringify([request.systemInstruction ?? '', request.contents ?? [], request.tools ?? []]).length / 4);
}

/** A stable vector for a text: its length, then its character codes scaled, `dims` long (default 4). */
export function fakeEmbedding(text: string, dims = 4): number[] {
  return Array.from({ length: dims }, (_, i) => (i === 0 ? text.length : (text.charCodeAt(i - 1) || 0) / 1000));
}

type Embedded = { values: number[] } | GeminiError;

/** One EmbedContentRequest checked and answered as the API does (text parts only). */
function embedOne(request: any, at: string): Embedded {
  const parts = request?.content?.parts;
  if (!Array.isArray(parts) || parts.length === 0) return invalid(`* ${at}.content.parts: contents.parts must not be empty.\n`);
  if (!parts.every((p: any) => typeof p?.text === 'string')) return invalid(`* ${at}.content.parts: only text parts can be embedded.\n`);
  const dims = request.outputDimensionality;
  if (dims !== undefined && (!Number.isInteger(dims) || dims < 1 || dims > 3072)) return invalid(`* ${at}.output_dimensionality: must be between 1 and 3072.\n`);
  return { values: fakeEmbedding(parts.map((p: any) => p.text).join(' '), dims) };
}

/** embedContent (`{embedding}`) and batchEmbedContents (`{embeddings}`); only embedding models embed, and batch requests name the URL's model. */
export function geminiEmbed(action: 'embedContent' | 'batchEmbedContents', model: string, body: any): { answer: unknown } | GeminiError {
  if (!model.includes('embedding')) return { code: 404, message: `models/${model} is not found for API version v1beta, or is not supported for ${action}. Call ListModels to see the list of available models and their supported methods.` };
  if (action === 'embedContent') {
    if (body.model !== undefined && body.model !== `models/${model}`) return invalid(`* EmbedContentRequest.model: model must match the model in the URL.\n`);
    const one = embedOne(body, 'EmbedContentRequest');
    return 'values' in one ? { answer: { embedding: one } } : one;
  }
  if (!Array.isArray(body.requests) || body.requests.length === 0) return invalid('* BatchEmbedContentsRequest.requests: requests is not specified\n');
  const embeddings: Array<{ values: number[] }> = [];
  for (const [i, r] of body.requests.entries()) {
    if (r?.model !== `models/${model}`) return invalid(`* BatchEmbedContentsRequest.requests[${i}].model: the model of every request must be the batch's (models/${model}).\n`);
    const one = embedOne(r, `BatchEmbedContentsRequest.requests[${i}]`);
    if (!('values' in one)) return one;
    embeddings.push(one);
  }
  return { answer: { embeddings } };
}
