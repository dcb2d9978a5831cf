import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, answerFault, sendJson, sleep, writePaced, type Received } from './fake-http.js';
import {
  checkGeminiRequest,
  geminiAnswer,
  geminiChunks,
  geminiCountTokens,
  geminiEmbed,
  geminiResponse,
  googleErrorBody,
  type GeminiBehaviour,
} from './gemini-answer.js';

import { FakeInteractions, INTERACTIONS_PATH } from './gemini-interactions.js';

export type { GeminiBehaviour } from './gemini-answer.js';
export { GEMINI_CALL_TOKENS, GEMINI_PROMPT_TOKENS, GEMINI_SIGNATURE } from './gemini-answer.js';

export const GEMINI_MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-3-pro-preview', 'text-embedding-004'];

const ACTION_PATH = /^\/(v1|v1beta|v1alpha)\/models\/([^/:]+):([A-Za-z]+)$/;
const LIST_PATH = /^\/(v1|v1beta|v1alpha)\/models$/;

/** The pieces of a streamGenerateContent answer: SSE with `alt=sse`, else one JSON array written piece by piece. */
export function geminiStreamPieces(chunks: { chunk: unknown; content: boolean }[], sse: boolean) {
  if (sse) return chunks.map((c) => ({ text: `data: ${JSON.stringify(c.chunk)}\r\n\r\n`, content: c.content }));
  const pieces = chunks.map((c, i) => ({ text: `${i === 0 ? '[' : '\n,\r\n'}${JSON.stringify(c.chunk, null, 2)}`, content: c.content }));
  pieces.push({ text: '\n]', content: false });
  return pieces;
}

/** Answers a Gemini action (shared with the Vertex fake, whose URLs differ). */
export async function answerGemini(res: ServerResponse, action: string, model: string, req: Received, b: GeminiBehaviour) {
  const fail = (code: number, message: string) => sendJson(res, googleErrorBody(code, message), code);
  if (action === 'countTokens') return sendJson(res, { totalTokens: geminiCountTokens(req.body ?? {}) });
  if (action === 'embedContent' || action === 'batchEmbedContents') {
    const embedded = geminiEmbed(action, model, req.body ?? {});
    return 'answer' in embedded ? sendJson(res, embedded.answer) : fail(embedded.code, embedded.message);
  }
  if (action !== 'generateContent' && action !== 'streamGenerateContent') return fail(404, `Action ${action} is not supported by the fake`);
  const invalid = checkGeminiRequest(req.body, model);
  if (invalid) return fail(invalid.code, invalid.message);
  const answer = geminiAnswer(req.body, b);
  if (action === 'generateContent') return sendJson(res, geminiResponse(model, answer, b));
  const sse = req.query.get('alt') === 'sse';
  res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json; charset=UTF-8' });
  if (await writePaced(res, geminiStreamPieces(geminiChunks(model, answer, b), sse), b)) res.end();
}

/** A status failure chosen by the behaviour, in Google's error shape. */
export function behaviourFailure(res: ServerResponse, b: GeminiBehaviour): boolean {
  if (!b.status || b.status < 400) return false;
  const headers: Record<string, string> = b.retryAfter ? { 'retry-after': String(b.retryAfter) } : {};
  sendJson(res, b.errorBody ?? googleErrorBody(b.status), b.status, headers);
  return true;
}

/**
 * A faithful fake of the Gemini API (generativelanguage.googleapis.com) on
 * 127.0.0.1: generateContent, streamGenerateContent (SSE with `alt=sse`, a
 * JSON array without), countTokens, embedContent, batchEmbedContents, the models list and the
 * Interactions API (stateful, gemini-interactions.ts), keyed by `x-goog-api-key` or `?key=`.
 * Without `acceptKeys` any non-empty key is valid.
 */
export class FakeGemini extends FakeHttp<GeminiBehaviour> {
  /** When set, only these keys authenticate. */
  acceptKeys?: Set<string>;
  /** The interactions each key created and kept. */
  readonly interactions = new FakeInteractions();

  protected keyOf(req: IncomingMessage, query: URLSearchParams): string {
    return String(req.headers['x-goog-api-key'] ?? query.get('key') ?? '');
  }

  protected async handle(req: Received, res: ServerResponse) {
    if (!req.key) {
      return sendJson(res, googleErrorBody(403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."), 403);
    }
    if (this.acceptKeys && !this.acceptKeys.has(req.key)) {
      const body = googleErrorBody(400, 'API key not valid. Please pass a valid API key.');
      const details = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }];
      return sendJson(res, { error: { ...body.error, details } }, 400);
    }
    const b = this.behaviour(req.key);
    if (b.delayMs) await sleep(b.delayMs);
    if (answerFault(res, b)) return;
    if (behaviourFailure(res, b)) return;
    if (req.method === 'GET' && LIST_PATH.test(req.path)) return this.models(req, res);
    if (INTERACTIONS_PATH.test(req.path)) return this.interactions.handle(req, res, b);
    const match = ACTION_PATH.exec(req.path);
    if (req.method !== 'POST' || !match) return sendJson(res, googleErrorBody(404, `Not found: ${req.method} ${req.path}`), 404);
    if (typeof req.body !== 'object') return sendJson(res, googleErrorBody(400, 'Invalid JSON payload received.'), 400);
    await answerGemini(res, match[3], match[2], req, b);
  }

  /** The models list with Google's page tokens (`pageSize`, `pageToken`). */
  private models(req: Received, res: ServerResponse) {
    const size = Number(req.query.get('pageSize') ?? 50);
    const start = Number(req.query.get('pageToken') ?? 0);
    const models = GEMINI_MODELS.slice(start, start + size).map((id) => ({
      name: `models/${id}`,
      version: '001',
      displayName: id,
      description: `Fake ${id}`,
      inputTokenLimit: 1048576,
      outputTokenLimit: id.startsWith('text-embedding') ? 1 : 65536,
      supportedGenerationMethods: id.startsWith('text-embedding') ? ['embedContent'] : ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
    }));
    const next = start + size < GEMINI_MODELS.length ? String(start + size) : undefined;
    sendJson(res, { models, ...(next ? { nextPageToken: next } : {}) });
  }
}
