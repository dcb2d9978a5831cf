import { HubError } from '../../../common/errors.js';
import type { Endpoint } from '../../providers/types.js';
import type { BufferedResponse } from './upstream.js';

/** The list (or part) every good answer of the endpoint carries; other JSON endpoints need an object. */
const SHAPES: Partial<Record<Endpoint, (json: Record<string, unknown>) => boolean>> = {
  'chat/completions': (j) => Array.isArray(j.choices),
  completions: (j) => Array.isArray(j.choices),
  embeddings: (j) => Array.isArray(j.data),
  messages: (j) => Array.isArray(j.content),
  responses: (j) => Array.isArray(j.output),
  'responses/compact': (j) => Array.isArray(j.output),
  generateContent: (j) => Array.isArray(j.candidates) || typeof j.promptFeedback === 'object',
  embedContent: (j) => typeof j.embedding === 'object',
  batchEmbedContents: (j) => Array.isArray(j.embeddings),
};
/** Endpoints whose answers are JSON whatever the content type says (audio and images may be bytes). */
const JSON_ENDPOINTS = new Set<Endpoint>(['chat/completions', 'completions', 'embeddings', 'moderations', 'rerank', 'responses', 'responses/compact', 'messages', 'generateContent', 'embedContent', 'batchEmbedContents']);

export const brokenAnswer = (why: string) => new HubError(502, `upstream answered 200 with ${why}`, { code: 'broken_answer', retryable: true });

/**
 * Checks a complete 200 answer before anyone is billed for it (issue 20.5): a JSON endpoint's
 * answer must parse and have the endpoint's shape, else the attempt failed (truncated or empty
 * JSON, an HTML page). Returns the parsed body so the responder does not parse it again.
 */
export function checkAnswer(endpoint: Endpoint, res: BufferedResponse): Record<string, unknown> | undefined {
  const json = String(res.headers['content-type'] ?? '').includes('json');
  if (!json && !JSON_ENDPOINTS.has(endpoint)) return undefined;
  if (res.body.length === 0) throw brokenAnswer('an empty body');
  let value: unknown;
  try {
    value = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw brokenAnswer(json ? 'invalid JSON' : `a non-JSON body (${String(res.headers['content-type'] ?? 'no content type')})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw brokenAnswer('JSON that is not an object');
  const answer = value as Record<string, unknown>;
  // An error object inside a 200 is the provider's error: the responder maps it.
  if (answer.error && typeof answer.error === 'object') return answer;
  const shape = SHAPES[endpoint];
  if (shape && !shape(answer)) throw brokenAnswer(`JSON that is not a ${endpoint} answer`);
  return answer;
}

/**
 * Whether an SSE data field can be an event of a JSON stream: a complete JSON value's
 * first and last characters, and an object's first key opening (O(1) in practice: it runs
 * for every frame). `[DONE]` ends OpenAI streams.
 */
export function plausibleFrame(data: string): boolean {
  const first = data.charCodeAt(0);
  const last = data.charCodeAt(data.length - 1);
  if (first === 0x7b) return last === 0x7d && opensObject(data); // { }
  if (first === 0x5b) return last === 0x5d || data === '[DONE]'; // [ ]
  if (first === 0x22) return last === 0x22 && data.length > 1; // a JSON string
  return false;
}

/** After `{` (and any blanks) an object has a key's quote or its closing brace: `{not json}` has neither. */
function opensObject(data: string): boolean {
  for (let i = 1; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c === 0x22 || c === 0x7d) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return false;
}

/**
 * The first event of a stream is parsed (once per stream): a stream that opens with anything
 * but a JSON object or array (`{not json}`, an HTML page) is a failed attempt, not an answer.
 */
export function validFirstFrame(data: string): boolean {
  if (data === '[DONE]') return true;
  try {
    const value: unknown = JSON.parse(data);
    return value !== null && typeof value === 'object';
  } catch {
    return false;
  }
}
