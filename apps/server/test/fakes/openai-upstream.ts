import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as endpoints from './openai-endpoints.js';
import { ENDED } from './openai-endpoints.js';
import { answerFault, type Faults } from './fake-http.js';

/** How the fake answers a request; chosen per channel key. */
export interface Behaviour extends Faults {
  status?: number;
  errorBody?: unknown;
  retryAfter?: number;
  delayMs?: number;
  /** Text of the answer (streamed word by word). */
  content?: string;
  /** Leave usage out of answers and streams. */
  noUsage?: boolean;
  /** Close the connection after this many content chunks. */
  cutAfterChunks?: number;
  /** Send the stream's 200 headers, then close without a single event. */
  cutBeforeFirstChunk?: boolean;
  /** Milliseconds between stream chunks. */
  chunkDelayMs?: number;
  /** Milliseconds between a stream's `[DONE]` and the end of the response. */
  endDelayMs?: number;
  /** Usage to report instead of the fixed one (prompt 10, a completion token per word); `cached` of the prompt read from cache. */
  usage?: { prompt: number; completion: number; cached?: number; cacheWrite?: number };
  /** The tier reported for a request with `service_tier` auto or unset (the project's default); default `default`. */
  serviceTier?: string;
  /** Accept the request and never answer (no headers, no body). */
  silent?: boolean;
  /** Send the 200 headers, then nothing more. */
  silentAfterHeaders?: boolean;
  /** Keep the answer back until `release()` is called. */
  hold?: boolean;
  /** Reads of a background response until it ends (default 2: in_progress, then its end). */
  backgroundReads?: number;
  /** A background response of this key ends failed. */
  backgroundFails?: boolean;
  /** A background response of this key reports this usage when it is cancelled while in progress. */
  cancelUsage?: { prompt: number; completion: number };
}

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON, or the text of a non-JSON (multipart) body. */
  body: any;
  /** The body exactly as it arrived. */
  raw: string;
  key: string;
}

const USAGE = (prompt: number, completion: number, cached = 0, cacheWrite = 0) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached, ...(cacheWrite ? { cache_write_tokens: cacheWrite } : {}) },
  completion_tokens_details: { reasoning_tokens: 0 },
});

/**
 * A faithful fake of the OpenAI API on 127.0.0.1: chat completions (JSON and
 * SSE with stream_options.include_usage), completions, embeddings, models,
 * images, audio, moderations, rerank and the Responses API (with its input
 * token counter and compaction); records
 * everything it receives. Usage is fixed per answer so billing is predictable:
 * prompt 10 tokens, one completion token per word.
 */
export class FakeOpenAI {
  readonly received: Received[] = [];
  /** Responses kept by id (store: true), each visible only to the key (project) that created it. */
  readonly kept = new Map<string, endpoints.KeptResponse>();
  private behaviours = new Map<string, Behaviour>();
  private held: Array<() => void> = [];
  /** Requests whose connection closed before the fake finished its answer. */
  abandoned = 0;
  private server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  behave(key: string, behaviour: Behaviour): void {
    this.behaviours.set(key, behaviour);
  }

  /** Answers held requests waiting now (`hold`); returns how many. */
  release(): number {
    const waiting = this.held.splice(0);
    for (const answer of waiting) answer();
    return waiting.length;
  }

  /** Requests held back right now. */
  get holding(): number {
    return this.held.length;
  }

  forKey(key: string): Received[] {
    return this.received.filter((r) => r.key === key);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    // Multipart keeps its bytes one-to-one as latin1 so uploaded files can be compared exactly.
    const text = Buffer.concat(chunks).toString(String(req.headers['content-type']).startsWith('multipart/') ? 'latin1' : 'utf8');
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // multipart or plain text stays a string
    }
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const path = (req.url ?? '').split('?')[0];
    this.received.push({ path, headers: req.headers, body, raw: text, key });
    const b = this.behaviours.get(key) ?? {};
    res.on('close', () => {
      if (!res.writableFinished) this.abandoned++;
    });
    if (b.silentAfterHeaders) {
      res.writeHead(200, { 'content-type': body?.stream ? 'text/event-stream' : 'application/json' });
      res.flushHeaders();
    }
    if (b.silent || b.silentAfterHeaders) return; // the gateway has to give up on its own
    if (b.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    if (b.delayMs) await new Promise((r) => setTimeout(r, b.delayMs));
    if (answerFault(res, b)) return;
    if (b.status && b.status >= 400) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (b.retryAfter) headers['retry-after'] = String(b.retryAfter);
      res.writeHead(b.status, headers);
      res.end(JSON.stringify(b.errorBody ?? { error: { message: `fake failure ${b.status}`, type: 'server_error', code: null } }));
      return;
    }
    if (path === '/v1/models') return this.json(res, { object: 'list', data: [{ id: 'gpt-4o', object: 'model' }, { id: 'gpt-4o-mini', object: 'model' }] });
    if (path === '/v1/embeddings') {
      const vector = [0.1, 0.2];
      const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return this.json(res, { object: 'list', data: [{ object: 'embedding', index: 0, embedding }], model: body.model, usage: { prompt_tokens: 7, total_tokens: 7 } });
    }
    if (path === '/v1/responses/input_tokens' || path === '/v1/responses/compact') {
      if (endpoints.refuseResponsesBody(res, path, req.headers.authorization, body)) return;
      if (path.endsWith('/compact')) {
        const unreadable = endpoints.unreadableItem(key, body.input);
        if (unreadable) return this.json(res, unreadable, 400);
        return endpoints.compact(res, body, b.usage ?? { prompt: 120, completion: 30 }, key);
      }
      return endpoints.inputTokens(res, body);
    }
    if (path.startsWith('/v1/responses/')) return this.storedResponse(res, req.method ?? 'GET', path, key, new URL(req.url ?? '', 'http://x').searchParams, b);
    const words = (b.content ?? 'Hello from the fake upstream').split(' ');
    const multipart = typeof body === 'string' ? body : '';
    switch (path) {
      case '/v1/completions':
        return endpoints.completions(res, body, words, Boolean(b.noUsage));
      case '/v1/images/generations':
        return endpoints.images(res, body.model, body.n ?? 1);
      case '/v1/images/edits':
      case '/v1/images/variations':
        return endpoints.images(res, endpoints.multipartField(multipart, 'model'), Number(endpoints.multipartField(multipart, 'n') ?? 1));
      case '/v1/audio/speech':
        return endpoints.speech(res);
      case '/v1/audio/transcriptions':
      case '/v1/audio/translations':
        return endpoints.transcription(res, endpoints.multipartField(multipart, 'response_format'), words.join(' '));
      case '/v1/moderations':
        return endpoints.moderations(res, body);
      case '/v1/rerank':
        return endpoints.rerank(res, body);
      case '/v1/responses':
        // An id this fake handed out continues only under the key (project) that keeps it, as on the real API.
        if (String(body.previous_response_id ?? '').startsWith('resp_fake') && this.kept.get(body.previous_response_id)?.key !== key) {
          return this.json(res, { error: { message: `Previous response with id '${body.previous_response_id}' not found.`, type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' } }, 400);
        }
        // Encrypted reasoning and compaction items are readable only by the organisation (key) that sealed them.
        if (endpoints.unreadableItem(key, body.input)) return this.json(res, endpoints.unreadableItem(key, body.input), 400);
        return endpoints.responses(res, body, words, Boolean(b.noUsage), { ...b, key }, (kept) => this.kept.set(kept.response.id as string, Object.assign(kept, { key })));
      case '/v1/chat/completions':
        break;
      default:
        return this.json(res, { error: { message: 'not found' } }, 404);
    }
    if (body.service_tier != null && !endpoints.SERVICE_TIERS.includes(body.service_tier)) {
      return this.json(res, { error: { message: `Invalid value: '${body.service_tier}'. Supported values are: ${endpoints.SERVICE_TIERS.join(', ')}.`, type: 'invalid_request_error', param: 'service_tier', code: 'invalid_value' } }, 400);
    }
    if (body.stream) return this.stream(res, body, words, b);
    return this.json(res, {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1700000000,
      model: body.model,
      service_tier: endpoints.servedTier(body, b.serviceTier),
      choices: [{ index: 0, message: { role: 'assistant', content: words.join(' ') }, finish_reason: 'stop' }],
      ...(b.noUsage ? {} : { usage: b.usage ? USAGE(b.usage.prompt, b.usage.completion, b.usage.cached, b.usage.cacheWrite) : USAGE(10, words.length) }),
    });
  }

  /** Retrieve, delete, cancel and input_items of a kept response, as the real API answers them. */
  private storedResponse(res: import('node:http').ServerResponse, method: string, path: string, key: string, query: URLSearchParams, b: Behaviour) {
    const [, , , id, sub] = path.split('/');
    const kept = this.kept.get(id);
    if (!kept || kept.key !== key) {
      return this.json(res, { error: { message: `Response with id '${id}' not found.`, type: 'invalid_request_error', param: null, code: null } }, 404);
    }
    const bg = kept.background;
    if (method === 'GET' && !sub && query.get('stream') === 'true') {
      if (!bg?.events) return this.json(res, { error: { message: 'This response cannot be streamed because it was not created with background=true and stream=true.', type: 'invalid_request_error', param: 'stream', code: null } }, 400);
      const after = Number(query.get('starting_after') ?? -1);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of bg.events) if (Number(e.sequence_number) > after) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
      return void res.end();
    }
    if (method === 'GET' && !sub) {
      if (bg && !ENDED.has(String(kept.response.status))) {
        bg.polls++;
        const ended = bg.polls >= (b.backgroundReads ?? 2);
        if (!ended) kept.response = { ...kept.response, status: 'in_progress' };
        else if (b.backgroundFails) kept.response = { ...kept.response, status: 'failed', error: { code: 'server_error', message: 'The model failed to generate a response.' }, usage: null };
        else kept.response = bg.final;
      }
      return this.json(res, kept.response);
    }
    if (method === 'DELETE' && !sub) {
      this.kept.delete(id);
      return this.json(res, { id, object: 'response', deleted: true });
    }
    if (method === 'POST' && sub === 'cancel') {
      // Only background responses cancel; one that has ended is answered as it is.
      if (bg) {
        if (!ENDED.has(String(kept.response.status))) {
          const partial = kept.response.status === 'in_progress' && b.cancelUsage;
          kept.response = { ...kept.response, status: 'cancelled', usage: partial ? { input_tokens: partial.prompt, output_tokens: partial.completion, total_tokens: partial.prompt + partial.completion, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } : null };
        }
        return this.json(res, kept.response);
      }
      return this.json(res, { error: { message: 'Cannot cancel a synchronous response.', type: 'invalid_request_error', param: null, code: null } }, 400);
    }
    if (method === 'GET' && sub === 'input_items') {
      const items = query.get('order') === 'asc' ? kept.inputItems : [...kept.inputItems].reverse();
      const limit = Number(query.get('limit') ?? 20);
      const after = query.get('after');
      const start = after ? items.findIndex((i) => i.id === after) + 1 : 0;
      const data = items.slice(start, start + limit);
      return this.json(res, { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < items.length });
    }
    return this.json(res, { error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null } }, 404);
  }

  private json(res: import('node:http').ServerResponse, value: unknown, status = 200) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  }

  private async stream(res: import('node:http').ServerResponse, body: any, words: string[], b: Behaviour) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (b.cutBeforeFirstChunk) {
      res.flushHeaders();
      await new Promise((r) => setTimeout(r, 20));
      res.destroy();
      return;
    }
    const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1700000000, model: body.model, service_tier: endpoints.servedTier(body, b.serviceTier) };
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`);
    for (const [i, word] of words.entries()) {
      if (b.cutAfterChunks !== undefined && i >= b.cutAfterChunks) {
        await new Promise((r) => setTimeout(r, 50)); // let the chunks already written reach the gateway
        res.destroy();
        return;
      }
      if (b.chunkDelayMs) await new Promise((r) => setTimeout(r, b.chunkDelayMs));
      if (res.destroyed) return;
      const content = i === 0 ? word : ` ${word}`;
      res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`);
    }
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    if (body.stream_options?.include_usage && !b.noUsage) {
      res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: b.usage ? USAGE(b.usage.prompt, b.usage.completion, b.usage.cached, b.usage.cacheWrite) : USAGE(10, words.length) })}\n\n`);
    }
    if (!b.endDelayMs) return void res.end('data: [DONE]\n\n');
    res.write('data: [DONE]\n\n');
    await new Promise((r) => setTimeout(r, b.endDelayMs));
    res.end();
  }
}
