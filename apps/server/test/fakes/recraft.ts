import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/**
 * Recraft's API: bearer key; image tools take a multipart `file`, styles a `style` and files;
 * generations answer like OpenAI's images API.
 */
export class FakeRecraft extends FakeHttp<Record<string, never>> {
  protected keyOf(req: IncomingMessage): string {
    return String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  }

  protected async handle(req: Received, res: ServerResponse): Promise<void> {
    if (!this.behaviours.has(req.key)) return sendJson(res, { code: 'not_authenticated', message: 'Invalid API key' }, 401);
    if (req.path === '/v1/images/generations') {
      if (typeof req.body?.prompt !== 'string') return sendJson(res, { code: 'invalid_request', message: 'prompt required' }, 400);
      return sendJson(res, { created: 1, data: [{ url: `${this.url}/out/gen.webp` }] });
    }
    const type = String(req.headers['content-type'] ?? '');
    if (!type.startsWith('multipart/form-data')) return sendJson(res, { code: 'invalid_request', message: 'multipart body required' }, 400);
    const form = await new Response(Buffer.from(req.raw, 'utf8'), { headers: { 'content-type': type } }).formData();
    if (req.path === '/v1/styles') {
      if (typeof form.get('style') !== 'string' || !form.get('file')) return sendJson(res, { code: 'invalid_request', message: 'style and file required' }, 400);
      return sendJson(res, { id: 'style-1' });
    }
    const tool = /^\/v1\/images\/(vectorize|removeBackground|clarityUpscale|generativeUpscale)$/.exec(req.path);
    const file = form.get('file');
    if (!tool) return sendJson(res, { code: 'not_found', message: 'not found' }, 404);
    if (!file || typeof file === 'string') return sendJson(res, { code: 'invalid_request', message: 'file required' }, 400);
    sendJson(res, { image: { url: `${this.url}/out/${tool[1]}-${(await file.text()).length}.png` } });
  }
}
