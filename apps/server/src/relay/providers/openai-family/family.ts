import { CHANNEL_TYPE_BY_ID } from '@one-hub/contract';
import { HubError } from '../../../common/errors.js';
import { openAICompatible } from '../openai-compatible/index.js';
import type { ChannelTarget, Endpoint, ProviderAdapter, StreamMapper, UpstreamRequest, Usage } from '../types.js';
import { bearer, type AuthHeaders } from './auth.js';
import type { BalanceQuery } from './balance.js';
import { streamUsageBody } from './body.js';

type Body = Record<string, unknown>;

/** One OpenAI-dialect provider described as data: where it lives and how it authenticates. */
export interface FamilyProfile {
  name: string;
  types: number[];
  endpoints: readonly Endpoint[];
  /** Segment between the base URL and the endpoint path (default `/v1`). */
  prefix?: string;
  /** Per-endpoint path overrides (relative to the prefix). */
  paths?: Partial<Record<Endpoint, string>>;
  /** Replaces the catalogue's default base URL (a channel's own base URL still wins). */
  defaultBase?: string;
  /** The whole URL when it depends on the model or the key (Azure, Databricks, Cloudflare). */
  url?: (channel: ChannelTarget, endpoint: Endpoint, model: string) => string;
  auth?: AuthHeaders;
  /** Upstream honours `stream_options.include_usage` (others get it stripped). */
  streamUsage?: boolean;
  /** Provider-specific body changes (must return the same object when nothing changes). */
  tweak?: (endpoint: Endpoint, body: Body, model: string, channel: ChannelTarget) => Body;
  /** Usage corrections for providers that count differently from OpenAI. */
  fixUsage?: (usage: Usage, raw: Record<string, unknown>) => Usage;
  /** Model list URL relative to the prefix (default `models`), a full URL builder, or null when there is none. */
  models?: string | ((channel: ChannelTarget) => string) | null;
  parseModels?: (json: unknown) => string[];
  balance?: BalanceQuery;
  /** Turns a 200 answer that is really an error (or not OpenAI-shaped) into OpenAI's shape. */
  transformResponse?: (endpoint: Endpoint, json: unknown, request: unknown) => unknown;
}

/** The base URL a profile talks to: the channel's own, else the profile's default, else the catalogue's. */
export function familyBase(profile: FamilyProfile, channel: ChannelTarget): string {
  const catalogue = CHANNEL_TYPE_BY_ID.get(channel.type)?.baseUrl ?? '';
  const base = profile.defaultBase && (!channel.baseUrl || channel.baseUrl === catalogue) ? profile.defaultBase : channel.baseUrl;
  return base.replace(/\/+$/, '');
}

function pathUrl(profile: FamilyProfile, channel: ChannelTarget, path: string): string {
  return `${familyBase(profile, channel)}${profile.prefix ?? '/v1'}/${path}`;
}

function headers(profile: FamilyProfile, channel: ChannelTarget, json: boolean): Record<string, string> {
  return { ...(json ? { 'content-type': 'application/json' } : {}), ...channel.headers, ...(profile.auth ?? bearer)(channel) };
}

/** Mistral-style errors put `message` at the top level, Cloudflare's are an `errors` list; everything else is OpenAI's `{error}`. */
export function mapFamilyError(status: number, body: string): HubError {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown; type?: unknown; code?: unknown; errors?: Array<{ message?: unknown; code?: unknown }> };
    if (parsed && !parsed.error && typeof parsed.message === 'string') {
      return openAICompatible.mapError(status, JSON.stringify({ error: { message: parsed.message, type: parsed.type, code: parsed.code } }));
    }
    const first = Array.isArray(parsed?.errors) ? parsed.errors[0] : undefined;
    if (first && typeof first.message === 'string') {
      return openAICompatible.mapError(status, JSON.stringify({ error: { message: first.message, code: first.code } }));
    }
  } catch {
    // not JSON: the text is the message
  }
  return openAICompatible.mapError(status, body);
}

/** OpenAI's `{data: [{id}]}`, or a bare array of `{id|name}` (GitHub Models' catalogue). */
function defaultModels(json: unknown): string[] {
  if (Array.isArray(json)) {
    return [...new Set(json.map((m: { id?: unknown; name?: unknown }) => m?.name ?? m?.id).filter((n): n is string => typeof n === 'string'))];
  }
  return openAICompatible.parseModels?.(json) ?? [];
}

function withUsageFix(mapper: StreamMapper, fix: NonNullable<FamilyProfile['fixUsage']>): StreamMapper {
  let raw: Record<string, unknown> | undefined;
  return {
    ...mapper,
    onEvent(data, event) {
      if (data.includes('"usage"')) {
        try {
          const usage = (JSON.parse(data) as { usage?: Record<string, unknown> }).usage;
          if (usage) raw = usage;
        } catch {
          // not JSON: the inner mapper decides
        }
      }
      return mapper.onEvent(data, event);
    },
    usage() {
      const usage = mapper.usage();
      return usage && raw ? fix(usage, raw) : usage;
    },
  };
}

/** Builds the adapter for one OpenAI-dialect profile. */
export function familyAdapter(profile: FamilyProfile): ProviderAdapter {
  const endpoints = new Set(profile.endpoints);
  const urlFor = (channel: ChannelTarget, endpoint: Endpoint, model: string) =>
    profile.url ? profile.url(channel, endpoint, model) : pathUrl(profile, channel, profile.paths?.[endpoint] ?? endpoint);
  const modelsUrl = (channel: ChannelTarget) =>
    typeof profile.models === 'function' ? profile.models(channel) : pathUrl(profile, channel, profile.models ?? 'models');

  const adapter: ProviderAdapter = {
    types: profile.types,
    name: profile.name,
    dialect: 'openai',
    endpoints,

    buildRequest(endpoint, body, channel, opts): UpstreamRequest {
      const url = urlFor(channel, endpoint, opts.model);
      if (opts.raw) return { url, headers: headers(profile, channel, false), body, raw: true };
      let out = streamUsageBody(endpoint, body as Body, opts.stream, profile.streamUsage ?? false);
      if (profile.tweak) out = profile.tweak(endpoint, out, opts.model, channel);
      return { url, headers: headers(profile, channel, true), body: out };
    },

    parseUsage(endpoint, json) {
      const usage = openAICompatible.parseUsage(endpoint, json);
      const raw = (json as { usage?: Record<string, unknown> } | null)?.usage;
      return usage && raw && profile.fixUsage ? profile.fixUsage(usage, raw) : usage;
    },

    createStreamMapper(opts) {
      const mapper = openAICompatible.createStreamMapper(opts);
      return profile.fixUsage ? withUsageFix(mapper, profile.fixUsage) : mapper;
    },

    mapError: mapFamilyError,
  };
  if (profile.models !== null) {
    adapter.modelsRequest = (channel) => ({ url: modelsUrl(channel), headers: headers(profile, channel, false), body: undefined });
    adapter.parseModels = profile.parseModels ?? defaultModels;
  }
  if (profile.balance) {
    const query = profile.balance;
    adapter.fetchBalance = (channel, get) => query(channel, headers(profile, channel, false), get);
  }
  if (profile.transformResponse) adapter.transformResponse = profile.transformResponse;
  return adapter;
}
