import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

export interface KlingBehaviour {
  failWith?: string;
}

interface KlingTask {
  task_id: string;
  action: string;
  task_status: string;
  task_status_msg: string;
  created_at: number;
  updated_at: number;
  task_result?: { videos: Array<{ id: string; url: string; duration: string }> };
  key: string;
  polls: number;
  duration: string;
}

/**
 * The Kling API: the bearer must be an HS256 JWT signed with the secret of its `iss` access
 * key, inside its `nbf`/`exp` window; submissions are validated like Kling does; a task goes
 * submitted → processing → succeed (or failed) over queries.
 */
export class FakeKling extends FakeHttp<KlingBehaviour> {
  readonly tasks = new Map<string, KlingTask>();
  /** Access key → secret key of the accounts this fake knows. */
  private readonly secrets = new Map<string, string>();
  private seq = 0;

  account(accessKey: string, secretKey: string, behaviour: KlingBehaviour = {}): void {
    this.secrets.set(accessKey, secretKey);
    this.behave(accessKey, behaviour);
  }

  /** The access key of a valid JWT, '' otherwise. */
  protected keyOf(req: IncomingMessage): string {
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const [h, p, s] = token.split('.');
    if (!h || !p || !s) return '';
    try {
      const header = JSON.parse(Buffer.from(h, 'base64url').toString());
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      const secret = this.secrets.get(claims.iss);
      if (header.alg !== 'HS256' || !secret) return '';
      const want = createHmac('sha256', secret).update(`${h}.${p}`).digest();
      const got = Buffer.from(s, 'base64url');
      const now = Date.now() / 1000;
      if (want.length !== got.length || !timingSafeEqual(want, got) || claims.exp < now || claims.nbf > now || claims.exp - now > 1800 + 5) return '';
      return claims.iss;
    } catch {
      return '';
    }
  }

  /** Holds the second half of a video file back until it resolves (a test sees the file streamed). */
  gate: Promise<void> = Promise.resolve();

  protected async handle(req: Received, res: ServerResponse): Promise<void> {
    // The result files, public as on Kling's CDN: no key needed; Range requests answered with 206.
    const media = /^\/videos\/(kl-\d+)\.mp4$/.exec(req.path);
    if (req.method === 'GET' && media && this.tasks.get(media[1])?.task_status === 'succeed') {
      const bytes = Buffer.concat([Buffer.alloc(64 * 1024, 'v'), Buffer.from(`END-${media[1]}`)]);
      const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
      if (range) {
        const [from, to] = [Number(range[1]), Math.min(Number(range[2]), bytes.length - 1)];
        res.writeHead(206, { 'content-type': 'video/mp4', 'content-range': `bytes ${from}-${to}/${bytes.length}`, 'accept-ranges': 'bytes' });
        return void res.end(bytes.subarray(from, to + 1));
      }
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length), 'accept-ranges': 'bytes' });
      res.write(bytes.subarray(0, 64 * 1024));
      await this.gate;
      return void res.end(bytes.subarray(64 * 1024));
    }
    if (!req.key) return sendJson(res, { code: 1000, message: 'Authorization failed', request_id: 'r' }, 401);
    const submit = /^\/v1\/videos\/(text2video|image2video)$/.exec(req.path);
    if (req.method === 'POST' && submit) {
      const b = req.body ?? {};
      const invalid =
        !['kling-v1', 'kling-v1-6', 'kling-v2-master'].includes(b.model_name) ||
        !['std', 'pro'].includes(b.mode) ||
        !['5', '10'].includes(b.duration) ||
        (submit[1] === 'text2video' ? typeof b.prompt !== 'string' : typeof b.image !== 'string');
      if (invalid) return sendJson(res, { code: 1201, message: 'invalid request parameters', request_id: 'r' }, 400);
      const now = Date.now();
      const task: KlingTask = { task_id: `kl-${++this.seq}`, action: submit[1], task_status: 'submitted', task_status_msg: '', created_at: now, updated_at: now, key: req.key, polls: 0, duration: b.duration };
      this.tasks.set(task.task_id, task);
      return sendJson(res, { code: 0, message: 'SUCCEED', request_id: 'r', data: this.view(task) });
    }
    const query = /^\/v1\/videos\/(text2video|image2video)\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && query) {
      const t = this.tasks.get(query[2]);
      if (!t || t.key !== req.key || t.action !== query[1]) return sendJson(res, { code: 1203, message: 'task not found', request_id: 'r' }, 404);
      this.advance(t, this.behaviour(req.key));
      return sendJson(res, { code: 0, message: 'SUCCEED', request_id: 'r', data: this.view(t) });
    }
    sendJson(res, { code: 1200, message: 'not found', request_id: 'r' }, 404);
  }

  private view({ key: _k, polls: _p, action: _a, duration: _d, ...t }: KlingTask) {
    return t;
  }

  private advance(t: KlingTask, b: KlingBehaviour): void {
    if (t.task_status === 'succeed' || t.task_status === 'failed') return;
    t.updated_at = Date.now();
    if (++t.polls === 1) {
      t.task_status = 'processing';
      return;
    }
    if (b.failWith) {
      t.task_status = 'failed';
      t.task_status_msg = b.failWith;
      return;
    }
    t.task_status = 'succeed';
    t.task_result = { videos: [{ id: `v-${t.task_id}`, url: `${this.url}/videos/${t.task_id}.mp4`, duration: t.duration }] };
  }
}
