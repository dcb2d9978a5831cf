import type { ChannelTarget, Endpoint } from '../types.js';

type Body = Record<string, unknown>;

/**
 * Asks for (or strips) `stream_options.include_usage` on streamed chat and completions.
 * The body object is replaced only when something changes, so an untouched body is
 * forwarded exactly as the caller sent it.
 */
export function streamUsageBody(endpoint: Endpoint, body: Body, stream: boolean, wantsUsage: boolean): Body {
  if (!stream || (endpoint !== 'chat/completions' && endpoint !== 'completions')) return body;
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  if (wantsUsage ? options?.include_usage === true : options === undefined) return body;
  const { stream_options: _dropped, ...rest } = body;
  return wantsUsage ? { ...rest, stream_options: { ...(options ?? {}), include_usage: true } } : rest;
}

/** Removes keys (answers the same object when none is present). */
export function without(body: Body, keys: readonly string[]): Body {
  if (!keys.some((k) => k in body)) return body;
  const out = { ...body };
  for (const k of keys) delete out[k];
  return out;
}

/** xAI rejects sampling penalties and `stop` on its reasoning models, and `reasoning_effort` on grok-4 (relay.md §5.1). */
export function xaiBody(_endpoint: Endpoint, body: Body, model: string): Body {
  if (!/^grok-(4|3-mini)/.test(model)) return body;
  const drop = ['stop', 'presence_penalty', 'frequency_penalty'];
  if (model.startsWith('grok-4')) drop.push('reasoning_effort');
  return without(body, drop);
}

/** OpenRouter's provider preferences from the channel plugin (`other.provider`, JSON text), unless the caller sent its own. */
export function openrouterBody(endpoint: Endpoint, body: Body, _model: string, channel: ChannelTarget): Body {
  const text = channel.plugin?.other?.provider;
  if (body.provider !== undefined || typeof text !== 'string' || !text.trim() || endpoint === 'embeddings') return body;
  try {
    const provider = JSON.parse(text) as unknown;
    return provider && typeof provider === 'object' ? { ...body, provider } : body;
  } catch {
    return body; // a malformed plugin value is ignored rather than failing every request
  }
}
