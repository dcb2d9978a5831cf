import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { sendJson, type Received } from './fake-http.js';
import { checkClaudeRequest, claudeAnswer, claudeErrorBody, claudeMessage, type ClaudeBehaviour } from './claude-answer.js';

/** One batch as the fake keeps it: its requests, how far processing got, and who created it. */
export interface FakeBatch {
  id: string;
  key: string;
  requests: Array<{ custom_id: string; params: any }>;
  /** Requests processed so far (in order); each retrieve processes one more. */
  processed: number;
  status: 'in_progress' | 'canceling' | 'ended';
  createdAt: string;
  endedAt: string | null;
  cancelAt: string | null;
  /** custom_id → the result line once processed. */
  results: Map<string, unknown>;
}

const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The Message Batches API of the fake Anthropic, stateful as the real one: a batch belongs to
 * the key that created it (another key's id is a 404), it is processed a request per retrieve
 * (`perPoll`), ends when all are processed or, once canceled, at the next retrieve (the rest are
 * `canceled`); results are JSONL once it ended; only an ended batch can be deleted. A request's
 * `custom_id` starting with `fail` is `errored`.
 */
export class FakeBatches {
  readonly batches = new Map<string, FakeBatch>();
  perPoll = 1;

  constructor(private readonly behaviour: (key: string) => ClaudeBehaviour) {}

  /** Answers a /v1/messages/batches request; false when the path is not one of the batch API. */
  handle(req: Received, res: ServerResponse): boolean {
    const m = /^\/v1\/messages\/batches(?:\/([^/]+)(?:\/(results|cancel))?)?$/.exec(req.path);
    if (!m) return false;
    const [, id, action] = m;
    const fail = (status: number, message: string) => sendJson(res, claudeErrorBody(status, message), status);
    if (!id) {
      if (req.method === 'POST') this.create(req, res);
      else if (req.method === 'GET') this.list(req, res);
      else fail(405, 'Method not allowed');
      return true;
    }
    const b = this.batches.get(decodeURIComponent(id));
    if (!b || b.key !== req.key) {
      fail(404, `No message batch found with id ${id}`);
      return true;
    }
    if (!action && req.method === 'GET') {
      this.advance(b);
      sendJson(res, this.view(b));
    } else if (action === 'results' && req.method === 'GET') {
      if (b.status !== 'ended') return fail(400, `Message batch ${b.id} has not ended yet; results are available once processing ends`), true;
      const lines = b.requests.map((r) => JSON.stringify(b.results.get(r.custom_id))).join('\n');
      res.writeHead(200, { 'content-type': 'application/binary' });
      res.end(`${lines}\n`);
    } else if (action === 'cancel' && req.method === 'POST') {
      if (b.status === 'in_progress') {
        b.status = 'canceling';
        b.cancelAt = new Date().toISOString();
      }
      sendJson(res, this.view(b));
    } else if (!action && req.method === 'DELETE') {
      if (b.status !== 'ended') return fail(400, `Message batch ${b.id} cannot be deleted while it is still processing; cancel it first`), true;
      this.batches.delete(b.id);
      sendJson(res, { id: b.id, type: 'message_batch_deleted' });
    } else fail(405, 'Method not allowed');
    return true;
  }

  private create(req: Received, res: ServerResponse) {
    const fail = (message: string) => sendJson(res, claudeErrorBody(400, message), 400);
    const requests = req.body?.requests;
    if (!Array.isArray(requests) || requests.length === 0) return fail('requests: Field required');
    const seen = new Set<string>();
    for (const [i, r] of requests.entries()) {
      if (typeof r?.custom_id !== 'string' || !CUSTOM_ID.test(r.custom_id)) return fail(`requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
      if (seen.has(r.custom_id)) return fail(`requests.${i}.custom_id: custom_id must be unique within a batch`);
      seen.add(r.custom_id);
      if (!r.params || typeof r.params !== 'object') return fail(`requests.${i}.params: Field required`);
      if (r.params.stream) return fail(`requests.${i}.params.stream: streaming is not supported in batches`);
      const invalid = checkClaudeRequest(r.params, 'anthropic');
      if (invalid) return fail(`requests.${i}.params.${invalid.message}`);
    }
    const b: FakeBatch = {
      id: `msgbatch_${randomBytes(12).toString('hex')}`,
      key: req.key,
      requests,
      processed: 0,
      status: 'in_progress',
      createdAt: new Date().toISOString(),
      endedAt: null,
      cancelAt: null,
      results: new Map(),
    };
    this.batches.set(b.id, b);
    sendJson(res, this.view(b));
  }

  /** The key's batches, newest first, with `limit`, `after_id` and `before_id`. */
  private list(req: Received, res: ServerResponse) {
    const all = [...this.batches.values()].filter((b) => b.key === req.key).reverse();
    const limit = Number(req.query.get('limit') ?? 20);
    const after = req.query.get('after_id');
    const start = after ? all.findIndex((b) => b.id === after) + 1 : 0;
    const page = all.slice(start, start + limit).map((b) => this.view(b));
    sendJson(res, { data: page, has_more: start + limit < all.length, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null });
  }

  /** One retrieve's worth of processing. */
  private advance(b: FakeBatch) {
    if (b.status === 'ended') return;
    if (b.status === 'canceling') {
      for (const r of b.requests.slice(b.processed)) b.results.set(r.custom_id, { custom_id: r.custom_id, result: { type: 'canceled' } });
      b.processed = b.requests.length;
    } else {
      for (const r of b.requests.slice(b.processed, b.processed + this.perPoll)) b.results.set(r.custom_id, this.result(b, r));
      b.processed = Math.min(b.requests.length, b.processed + this.perPoll);
    }
    if (b.processed === b.requests.length) {
      b.status = 'ended';
      b.endedAt = new Date().toISOString();
    }
  }

  private result(b: FakeBatch, r: { custom_id: string; params: any }) {
    if (r.custom_id.startsWith('fail')) return { custom_id: r.custom_id, result: { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'fake failure' } } } };
    const message = claudeMessage(r.params.model, claudeAnswer(r.params, this.behaviour(b.key)));
    return { custom_id: r.custom_id, result: { type: 'succeeded', message: { ...message, id: `msg_${r.custom_id}` } } };
  }

  private view(b: FakeBatch) {
    const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
    for (const r of b.requests) {
      const got = b.results.get(r.custom_id) as { result: { type: keyof typeof counts } } | undefined;
      counts[got ? got.result.type : 'processing']++;
    }
    const expires = new Date(Date.parse(b.createdAt) + 86_400_000).toISOString();
    return {
      id: b.id,
      type: 'message_batch',
      processing_status: b.status,
      request_counts: counts,
      ended_at: b.endedAt,
      created_at: b.createdAt,
      expires_at: expires,
      archived_at: null,
      cancel_initiated_at: b.cancelAt,
      results_url: b.status === 'ended' ? `http://api.fake-anthropic.invalid/v1/messages/batches/${b.id}/results` : null,
    };
  }
}
