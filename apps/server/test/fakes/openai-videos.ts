import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

export interface VideoBehaviour {
  failWith?: string;
}

interface FakeVideo {
  id: string;
  object: 'video';
  model: string;
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  progress: number;
  created_at: number;
  completed_at: number | null;
  expires_at: number | null;
  prompt: string;
  seconds: string;
  size: string;
  remixed_from_video_id: string | null;
  error: { code: string; message: string } | null;
}

const SECONDS = ['4', '8', '12'];
const SIZES = ['720x1280', '1280x720', '1024x1792', '1792x1024'];
const MODELS = ['sora-2', 'sora-2-pro'];

/**
 * OpenAI's video API, also as Azure serves it (`/openai/v1/videos`, `api-key`): create from JSON
 * or multipart (with an input reference), status moving one step per retrieve, content written in
 * two parts with a gate between them (so a test sees it streamed), remix of completed videos, delete.
 */
export class FakeOpenAIVideos extends FakeHttp<VideoBehaviour> {
  readonly videos = new Map<string, FakeVideo & { key: string; reference?: string }>();
  private seq = 0;
  /** Content answers wait here after their first part, until a test opens it. */
  gate: Promise<void> = Promise.resolve();

  protected keyOf(req: IncomingMessage): string {
    if (req.url?.startsWith('/openai/')) return String(req.headers['api-key'] ?? '');
    return String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  }

  protected async handle(req: Received, res: ServerResponse): Promise<void> {
    if (!this.behaviours.has(req.key)) return sendJson(res, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }, 401);
    const path = req.path.replace(/^\/openai/, '');
    if (req.method === 'POST' && path === '/v1/videos') return this.create(req, res);
    const m = /^\/v1\/videos\/([^/]+)(\/content|\/remix)?$/.exec(path);
    const v = m && this.videos.get(m[1]);
    if (!m || !v || v.key !== req.key) return sendJson(res, { error: { message: 'Video not found', type: 'invalid_request_error' } }, 404);
    if (req.method === 'GET' && !m[2]) {
      this.advance(v, this.behaviour(req.key));
      return sendJson(res, this.view(v));
    }
    if (req.method === 'GET' && m[2] === '/content') {
      if (v.status !== 'completed') return sendJson(res, { error: { message: 'Video is not ready', type: 'invalid_request_error' } }, 400);
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write(Buffer.alloc(64 * 1024, 1));
      await this.gate;
      res.end(Buffer.from(`END-${v.id}`));
      return;
    }
    if (req.method === 'POST' && m[2] === '/remix') {
      if (v.status !== 'completed') return sendJson(res, { error: { message: 'Only completed videos can be remixed', type: 'invalid_request_error' } }, 400);
      if (typeof req.body?.prompt !== 'string') return sendJson(res, { error: { message: 'prompt is required', type: 'invalid_request_error' } }, 400);
      return sendJson(res, this.view(this.add(req.key, { model: v.model, prompt: req.body.prompt, seconds: v.seconds, size: v.size, remixed_from_video_id: v.id })));
    }
    if (req.method === 'DELETE' && !m[2]) {
      this.videos.delete(v.id);
      return sendJson(res, { id: v.id, object: 'video.deleted', deleted: true });
    }
    sendJson(res, { error: { message: 'not found' } }, 404);
  }

  private async create(req: Received, res: ServerResponse): Promise<void> {
    let fields: Record<string, unknown> = req.body ?? {};
    let reference: string | undefined;
    const type = String(req.headers['content-type'] ?? '');
    if (type.startsWith('multipart/form-data')) {
      const form = await new Response(Buffer.from(req.raw, 'utf8'), { headers: { 'content-type': type } }).formData();
      fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'));
      const file = form.get('input_reference');
      if (file && typeof file !== 'string') reference = await file.text();
    }
    const model = String(fields.model ?? 'sora-2');
    const seconds = String(fields.seconds ?? '4');
    const size = String(fields.size ?? '720x1280');
    if (!MODELS.includes(model) || !SECONDS.includes(seconds) || !SIZES.includes(size) || typeof fields.prompt !== 'string') {
      return sendJson(res, { error: { message: 'Invalid video request', type: 'invalid_request_error', param: 'seconds' } }, 400);
    }
    const v = this.add(req.key, { model, prompt: fields.prompt, seconds, size, remixed_from_video_id: null });
    v.reference = reference;
    sendJson(res, this.view(v));
  }

  private add(key: string, f: Pick<FakeVideo, 'model' | 'prompt' | 'seconds' | 'size' | 'remixed_from_video_id'>) {
    const v: FakeVideo & { key: string; reference?: string } = { id: `video_${++this.seq}`, object: 'video' as const, status: 'queued' as const, progress: 0, created_at: Math.floor(Date.now() / 1000), completed_at: null, expires_at: null, error: null, ...f, key };
    this.videos.set(v.id, v);
    return v;
  }

  private view({ key: _k, reference: _r, ...v }: FakeVideo & { key: string; reference?: string }): FakeVideo {
    return v;
  }

  private advance(v: FakeVideo, b: VideoBehaviour): void {
    if (v.status === 'completed' || v.status === 'failed') return;
    if (v.status === 'queued') {
      Object.assign(v, { status: 'in_progress', progress: 50 });
      return;
    }
    if (b.failWith) Object.assign(v, { status: 'failed', error: { code: 'moderation_blocked', message: b.failWith } });
    else Object.assign(v, { status: 'completed', progress: 100, completed_at: Math.floor(Date.now() / 1000), expires_at: Math.floor(Date.now() / 1000) + 3600 });
  }
}
