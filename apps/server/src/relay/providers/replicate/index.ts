import { HubError } from '../../../common/errors.js';
import { scrubSecrets } from '../openai-compatible/index.js';
import { aspectRatio } from '../stability/index.js';
import type { ChannelTarget, Endpoint, ProviderAdapter } from '../types.js';

const base = (c: ChannelTarget) => c.baseUrl.replace(/\/+$/, '');

/** `owner/name` runs the model's latest version; `owner/name:version` a pinned one. */
function predictionUrl(channel: ChannelTarget, model: string): { url: string; version?: string } {
  const colon = model.indexOf(':');
  if (colon > 0) return { url: `${base(channel)}/v1/predictions`, version: model.slice(colon + 1) };
  if (!model.includes('/')) throw new HubError(400, 'Replicate models are named owner/name or owner/name:version', { code: 'invalid_model' });
  return { url: `${base(channel)}/v1/models/${model}/predictions` };
}

interface Prediction {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
  created_at?: string;
}

/** Replicate (type 52): image generation as a synchronous prediction (`Prefer: wait`). */
export const replicate: ProviderAdapter = {
  types: [52],
  name: 'replicate',
  dialect: 'openai',
  endpoints: new Set<Endpoint>(['images/generations']),

  buildRequest(_endpoint, body, channel, opts) {
    const b = body as { prompt?: unknown; n?: unknown; size?: unknown };
    const target = predictionUrl(channel, opts.model);
    const input: Record<string, unknown> = { prompt: b.prompt, output_format: 'png' };
    if (typeof b.n === 'number' && b.n > 1) input.num_outputs = b.n;
    const ratio = aspectRatio(b.size);
    if (ratio) input.aspect_ratio = ratio;
    return {
      url: target.url,
      headers: { 'content-type': 'application/json', ...channel.headers, authorization: `Bearer ${channel.key}`, prefer: 'wait' },
      body: target.version ? { version: target.version, input } : { input },
    };
  },

  transformResponse(_endpoint, json) {
    const p = json as Prediction;
    if (p.status === 'failed' || p.status === 'canceled') throw new HubError(502, `Provider API error: ${String(p.error ?? p.status)}`, { type: 'upstream_error', code: 'prediction_failed' });
    if (p.status !== 'succeeded') throw new HubError(504, `Provider API error: prediction ${p.id} still ${p.status} after the wait`, { type: 'upstream_error', code: 'prediction_timeout' });
    const urls = (Array.isArray(p.output) ? p.output : [p.output]).filter((u): u is string => typeof u === 'string');
    return { created: Math.floor(Date.now() / 1000), data: urls.map((url) => ({ url })) };
  },
  parseUsage: () => null,
  createStreamMapper() {
    throw new HubError(400, 'Replicate image predictions do not stream', { code: 'unsupported_endpoint' });
  },
  mapError(status, body) {
    let message = body.trim() || `status ${status}`;
    try {
      const e = JSON.parse(body) as { detail?: string; title?: string };
      message = e.detail || e.title || message;
    } catch {
      // not JSON
    }
    return new HubError(status, `Provider API error: ${scrubSecrets(message).slice(0, 1000)}`, { type: 'upstream_error', upstream: body.slice(0, 2000) });
  },
};
