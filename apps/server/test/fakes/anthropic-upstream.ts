import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, answerFault, sendJson, sleep, writePaced, type Received } from './fake-http.js';
import {
  checkClaudeRequest,
  claudeAnswer,
  claudeCountTokens,
  claudeErrorBody,
  claudeEvents,
  claudeMessage,
  type ClaudeBehaviour,
  type ClaudeEvent,
} from './claude-answer.js';
import { FakeBatches } from './anthropic-batches.js';

export type { ClaudeBehaviour } from './claude-answer.js';
export { CLAUDE_INPUT_TOKENS, CLAUDE_TOOL_TOKENS, thinkingSignature } from './claude-answer.js';

export const CLAUDE_MODELS = [
  { id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' },
  { id: 'claude-opus-4-1-20250805', display_name: 'Claude Opus 4.1', created_at: '2025-08-05T00:00:00Z' },
  { id: 'claude-3-5-haiku-20241022', display_name: 'Claude Haiku 3.5', created_at: '2024-10-22T00:00:00Z' },
];

/** Server-sent-event text of Claude events, as the API frames them. */
export function claudeSse(events: ClaudeEvent[]) {
  return events.map((e) => ({ text: `event: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`, content: e.content }));
}

/**
 * A faithful fake of the Anthropic API on 127.0.0.1: `POST /v1/messages`
 * (JSON and the full SSE event sequence), `/v1/messages/count_tokens` and
 * `GET /v1/models` and the Message Batches API, validating requests like the real API and answering errors
 * in its shape. The key comes from `x-api-key` or `Authorization: Bearer`;
 * without `acceptKeys` any non-empty key is valid.
 */
export class FakeAnthropic extends FakeHttp<ClaudeBehaviour> {
  /** When set, only these keys authenticate. */
  acceptKeys?: Set<string>;
  /** The Message Batches API, with its state (anthropic-batches.ts). */
  readonly batches = new FakeBatches((key) => this.behaviour(key));

  protected keyOf(req: IncomingMessage): string {
    // Recent SDKs send API keys as `Authorization: Bearer`; the API takes either.
    return String(req.headers['x-api-key'] ?? String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
  }

  protected async handle(req: Received, res: ServerResponse) {
    const fail = (status: number, message?: string, headers: Record<string, string> = {}) =>
      sendJson(res, claudeErrorBody(status, message), status, { 'request-id': 'req_fake_error', ...headers });
    if (!req.key || (this.acceptKeys && !this.acceptKeys.has(req.key))) return fail(401, 'invalid x-api-key');
    if (!req.headers['anthropic-version']) return fail(400, 'anthropic-version: header is required');
    const b = this.behaviour(req.key);
    if (b.delayMs) await sleep(b.delayMs);
    if (answerFault(res, b)) return;
    if (b.status && b.status >= 400) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (b.retryAfter) headers['retry-after'] = String(b.retryAfter);
      if (b.errorBody !== undefined) return sendJson(res, b.errorBody, b.status, headers);
      return fail(b.status, undefined, headers);
    }
    if (this.batches.handle(req, res)) return;
    if (req.method === 'GET' && req.path === '/v1/models') return this.models(req, res);
    if (req.method !== 'POST') return fail(404, `Not found: ${req.method} ${req.path}`);
    if (req.path === '/v1/messages/count_tokens') {
      if (typeof req.body?.model !== 'string') return fail(400, 'model: Field required');
      if (!Array.isArray(req.body.messages) || req.body.messages.length === 0) return fail(400, 'messages: at least one message is required');
      return sendJson(res, { input_tokens: claudeCountTokens(req.body) });
    }
    if (req.path !== '/v1/messages') return fail(404, `Not found: ${req.method} ${req.path}`);
    if (typeof req.body !== 'object') return fail(400, 'There was an issue with your request body: not valid JSON');
    const invalid = checkClaudeRequest(req.body, 'anthropic');
    if (invalid) return fail(invalid.status, invalid.message);
    const answer = claudeAnswer(req.body, b);
    if (!req.body.stream) return sendJson(res, claudeMessage(req.body.model, answer), 200, { 'request-id': 'req_fake_ok' });
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': 'req_fake_ok' });
    if (await writePaced(res, claudeSse(claudeEvents(req.body.model, answer, b)), b)) res.end();
  }

  /** The models list with Anthropic's cursor paging (`limit`, `after_id`, `before_id`). */
  private models(req: Received, res: ServerResponse) {
    const limit = Number(req.query.get('limit') ?? 20);
    let start = 0;
    const after = req.query.get('after_id');
    const before = req.query.get('before_id');
    if (after) start = CLAUDE_MODELS.findIndex((m) => m.id === after) + 1;
    let page = CLAUDE_MODELS.slice(start, start + limit);
    if (before) {
      const end = CLAUDE_MODELS.findIndex((m) => m.id === before);
      page = CLAUDE_MODELS.slice(Math.max(0, end - limit), Math.max(0, end));
    }
    const data = page.map((m) => ({ type: 'model', ...m }));
    const lastIndex = data.length ? CLAUDE_MODELS.findIndex((m) => m.id === data[data.length - 1].id) : CLAUDE_MODELS.length;
    sendJson(res, {
      data,
      has_more: lastIndex < CLAUDE_MODELS.length - 1,
      first_id: data[0]?.id ?? null,
      last_id: data[data.length - 1]?.id ?? null,
    });
  }
}
