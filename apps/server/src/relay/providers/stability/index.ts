import { HubError } from '../../../common/errors.js';
import { scrubSecrets } from '../openai-compatible/index.js';
import { multipartForm } from '../shared/multipart.js';
import type { Endpoint, ProviderAdapter } from '../types.js';

const RATIOS = ['21:9', '16:9', '3:2', '5:4', '1:1', '4:5', '2:3', '9:16', '9:21'];

/** OpenAI `size` (`1792x1024`) → the nearest aspect ratio Stability accepts. */
export function aspectRatio(size: unknown): string | undefined {
  const m = typeof size === 'string' ? /^(\d+)x(\d+)$/.exec(size) : null;
  if (!m) return undefined;
  const want = Number(m[1]) / Number(m[2]);
  const value = (r: string) => {
    const [w, h] = r.split(':').map(Number);
    return w / h;
  };
  return RATIOS.reduce((best, r) => (Math.abs(Math.log(value(r) / want)) < Math.abs(Math.log(value(best) / want)) ? r : best));
}

/** Console model names → (service, SD3 model): `sd3*` on the SD3 service, `stable-image-<x>` on service `<x>`. */
export function stabilityRoute(model: string): { service: string; model?: string } {
  if (model.startsWith('stable-image-')) return { service: model.slice('stable-image-'.length) };
  if (model === 'sd3') return { service: 'sd3', model: 'sd3-large' };
  if (model === 'sd3-turbo') return { service: 'sd3', model: 'sd3-large-turbo' };
  if (model.startsWith('sd3')) return { service: 'sd3', model };
  return { service: model };
}

/** Stability AI (type 37): image generation on `/stable-image/generate/<service>`, one image per call, JSON answers. */
export const stability: ProviderAdapter = {
  types: [37],
  name: 'stability',
  dialect: 'openai',
  endpoints: new Set<Endpoint>(['images/generations']),

  buildRequest(_endpoint, body, channel, opts) {
    const b = body as { prompt?: unknown; size?: unknown; negative_prompt?: unknown; seed?: unknown; style?: unknown };
    const route = stabilityRoute(opts.model);
    const form = multipartForm({
      prompt: String(b.prompt ?? ''),
      model: route.model,
      aspect_ratio: aspectRatio(b.size),
      negative_prompt: typeof b.negative_prompt === 'string' ? b.negative_prompt : undefined,
      seed: typeof b.seed === 'number' ? b.seed : undefined,
      output_format: 'png',
    });
    return {
      url: `${channel.baseUrl.replace(/\/+$/, '')}/stable-image/generate/${route.service}`,
      headers: { ...channel.headers, authorization: `Bearer ${channel.key}`, accept: 'application/json', 'content-type': form.contentType },
      body: form.body,
      raw: true,
    };
  },

  transformResponse(_endpoint, json, request) {
    const a = json as { image?: string; finish_reason?: string; seed?: number };
    if (a.finish_reason === 'CONTENT_FILTERED') throw new HubError(400, 'Provider API error: the image was filtered by Stability AI', { type: 'upstream_error', code: 'content_filter' });
    const asUrl = (request as { response_format?: string } | undefined)?.response_format === 'url';
    const image = a.image ?? '';
    return { created: Math.floor(Date.now() / 1000), data: [asUrl ? { url: `data:image/png;base64,${image}` } : { b64_json: image }] };
  },
  parseUsage: () => null,
  createStreamMapper() {
    throw new HubError(400, 'Stability AI does not stream', { code: 'unsupported_endpoint' });
  },
  mapError(status, body) {
    let message = body.trim() || `status ${status}`;
    let code: string | null = null;
    try {
      const e = JSON.parse(body) as { name?: string; errors?: string[]; message?: string };
      message = e.errors?.join('; ') || e.message || message;
      code = e.name ?? null;
    } catch {
      // not JSON
    }
    return new HubError(status, `Provider API error: ${scrubSecrets(message).slice(0, 1000)}`, { type: 'upstream_error', code, upstream: body.slice(0, 2000) });
  },
};
