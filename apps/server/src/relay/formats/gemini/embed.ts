import { z } from 'zod';
import { isObject } from '../shared/json.js';
import { FormatError } from '../shared/errors.js';

/*
 * Gemini embeddings: `models/{model}:embedContent` ({content}) and `:batchEmbedContents`
 * ({requests: [{model, content}]}), and the OpenAI embeddings request carried over to the latter.
 */

const content = z.looseObject({ parts: z.array(z.looseObject({}), { error: 'must be an array of parts' }) }, { error: 'must be a content object with parts' });

/** The door's outline of an embedContent body. */
export const embedContentDoorSchema = z.looseObject({ content });
/** The door's outline of a batchEmbedContents body. */
export const batchEmbedDoorSchema = z.looseObject({
  requests: z.array(z.looseObject({ content }), { error: 'must be an array of embed requests' }).min(1, { error: 'must hold at least one request' }),
});

const partTexts = (c: unknown): string[] =>
  isObject(c) && Array.isArray(c.parts) ? c.parts.flatMap((p) => (isObject(p) && typeof p.text === 'string' ? [p.text] : [])) : [];

/** The texts a Gemini embed body asks to embed (what it is billed on). */
export function embedTexts(body: Record<string, unknown>): string[] {
  if (Array.isArray(body.requests)) return body.requests.flatMap((r) => (isObject(r) ? partTexts(r.content) : []));
  return partTexts(body.content);
}

/**
 * The body with every request naming `models/{model}`: the API refuses a batch request whose
 * model differs from the URL's, which a channel's model mapping would otherwise cause.
 * An unchanged body is returned as the same object (its bytes go out as received).
 */
export function withEmbedModel(body: Record<string, unknown>, model: string): Record<string, unknown> {
  const name = `models/${model}`;
  if (Array.isArray(body.requests)) {
    if (body.requests.every((r) => !isObject(r) || r.model === name)) return body;
    return { ...body, requests: body.requests.map((r) => (isObject(r) ? { ...r, model: name } : r)) };
  }
  return body.model === undefined || body.model === name ? body : { ...body, model: name };
}

/** OpenAI `/v1/embeddings` body → batchEmbedContents (text inputs only: Gemini takes no token arrays). */
export function openAIToBatchEmbed(body: Record<string, unknown>, model: string): Record<string, unknown> {
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0) throw new FormatError('must be a string or a non-empty array of strings', 'input');
  if (!input.every((t) => typeof t === 'string')) throw new FormatError('Gemini channels embed text only (token arrays are not supported)', 'input');
  const dims = body.dimensions;
  return {
    requests: input.map((text) => ({
      model: `models/${model}`,
      content: { parts: [{ text }] },
      ...(typeof dims === 'number' ? { outputDimensionality: dims } : {}),
    })),
  };
}

/** A batchEmbedContents answer's vectors, in request order. */
export function batchEmbedVectors(json: unknown): number[][] {
  const list = isObject(json) && Array.isArray(json.embeddings) ? json.embeddings : [];
  return list.map((e) => (isObject(e) && Array.isArray(e.values) ? (e.values as number[]) : []));
}
