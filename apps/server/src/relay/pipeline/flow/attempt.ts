import type { ChannelRow } from '../../../db/repos/channels.js';
import { HubError } from '../../../common/errors.js';
import { adapterFor, defaultBaseUrl } from '../../providers/index.js';
import type { ChannelTarget, Endpoint, InboundHeaders, ProviderAdapter, UpstreamRequest } from '../../providers/types.js';
import { sendUpstreamBuffered } from './upstream.js';

export interface RoutedChannel {
  row: ChannelRow;
  adapter: ProviderAdapter;
  target: ChannelTarget;
  /** Model name sent upstream. */
  upstreamModel: string;
  /** Model name billed and logged. */
  billedModel: string;
}

function jsonObject(text: string | null, what: string): Record<string, string> {
  if (!text?.trim()) return {};
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, string>;
  } catch {
    // fall through
  }
  throw new HubError(503, `channel ${what} is not a valid JSON object`, { code: 'channel_misconfigured', retryable: true });
}

/** Applies the channel's model mapping; `+name` bills the requested model (relay.md §3.7). */
function mapModel(mapping: Record<string, string>, requested: string): { upstream: string; billed: string } {
  const mapped = mapping[requested];
  if (typeof mapped !== 'string' || !mapped) return { upstream: requested, billed: requested };
  if (mapped.startsWith('+')) return { upstream: mapped.slice(1), billed: requested };
  return { upstream: mapped, billed: mapped };
}

/** Plugin settings: a JSON object of objects; anything else counts as none. */
function pluginOf(text: string | null): Record<string, Record<string, unknown>> {
  try {
    const value = text ? JSON.parse(text) : {};
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** A channel row's JSON settings, parsed once per row (index rows live until the next rebuild); read-only. */
interface RowSettings {
  texts: [string | null, string | null, string | null, string | null, string, number];
  /** Base URL without trailing slashes (the type's default when the row has none). */
  baseUrl: string;
  /** The first of the row's keys. */
  key: string;
  mapping: () => Record<string, string>;
  headers: () => Record<string, string>;
  plugin: Record<string, Record<string, unknown>>;
}
const settingsByRow = new WeakMap<ChannelRow, RowSettings>();

/** The parsed object, kept; invalid text is parsed again on each call, so every attempt gets its own error. */
function once(text: string | null, what: string): () => Record<string, string> {
  try {
    const value = jsonObject(text, what);
    return () => value;
  } catch {
    return () => jsonObject(text, what);
  }
}

function settingsOf(row: ChannelRow): RowSettings {
  const cached = settingsByRow.get(row);
  const t = cached?.texts;
  if (t && t[0] === row.model_mapping && t[1] === row.model_headers && t[2] === row.plugin && t[3] === row.base_url && t[4] === row.key && t[5] === row.type) return cached;
  const settings: RowSettings = {
    texts: [row.model_mapping, row.model_headers, row.plugin, row.base_url, row.key, row.type],
    baseUrl: (row.base_url || defaultBaseUrl(row.type)).replace(/\/+$/, ''),
    key: row.key.split('\n')[0].trim(),
    mapping: once(row.model_mapping, 'model_mapping'),
    headers: once(row.model_headers, 'model_headers'),
    plugin: pluginOf(row.plugin),
  };
  settingsByRow.set(row, settings);
  return settings;
}

/** Resolves adapter, base URL, headers and model names for one attempt on a channel. */
export function routeTo(row: ChannelRow, requestedModel: string): RoutedChannel {
  const family = adapterFor(row.type);
  if (!family) throw new HubError(503, 'channel not implemented', { code: 'channel_not_implemented', retryable: true });
  const settings = settingsOf(row);
  const { upstream, billed } = mapModel(settings.mapping(), requestedModel);
  const plugin = settings.plugin;
  const adapter = family.forModel?.(upstream) ?? family.forPlugin?.(plugin) ?? family;
  const { baseUrl, key } = settings;
  if (!baseUrl && !adapter.regionalHost) throw new HubError(503, 'channel has no base URL', { code: 'channel_misconfigured', retryable: true });
  return {
    row,
    adapter,
    upstreamModel: upstream,
    billedModel: billed,
    target: { id: row.id, type: row.type, key, baseUrl, other: row.other ?? '', headers: settings.headers(), plugin },
  };
}

/** Replaces the model in a JSON body; multipart bodies get their `model` field rewritten in place. */
export function withModel(body: Record<string, unknown> | Buffer, model: string, original: string): Record<string, unknown> | Buffer {
  // The same object keeps its received text, so an unchanged body is forwarded without re-serialising.
  if (!Buffer.isBuffer(body)) return body.model === model ? body : { ...body, model };
  if (model === original) return body;
  const text = body.toString('latin1');
  return Buffer.from(text.replace(/(name="model"\r\n(?:[^\r\n]+\r\n)*\r\n)[^\r\n]+/, `$1${model}`), 'latin1');
}

export function buildUpstream(
  route: RoutedChannel,
  endpoint: Endpoint,
  body: Record<string, unknown> | Buffer,
  opts: { stream: boolean; contentType?: string; model: string; inbound?: InboundHeaders },
): UpstreamRequest {
  const raw = Buffer.isBuffer(body);
  const req = route.adapter.buildRequest(endpoint, body, route.target, { stream: opts.stream, raw, model: opts.model, inbound: opts.inbound });
  if (raw && opts.contentType) req.headers['content-type'] = opts.contentType;
  return req;
}

/** Runs the adapter's async authorization step (token exchanges go through the channel's proxy). */
export function authorizeUpstream(route: RoutedChannel, req: UpstreamRequest, proxy: string | null | undefined): UpstreamRequest | Promise<UpstreamRequest> {
  if (!route.adapter.authorize) return req; // most adapters: nothing to wait for
  return route.adapter.authorize(req, route.target, async (url, form) => {
    const res = await sendUpstreamBuffered(
      { url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from(form), raw: true },
      { method: 'POST', proxy, proxyKey: route.target.key },
    );
    return { status: res.statusCode, body: res.body.toString('utf8') };
  });
}
