import { HubError } from '../../../common/errors.js';
import type { ChannelTarget, Endpoint } from '../types.js';

/** The console's default when an Azure channel has no API version (api.md §3). */
export const AZURE_DEFAULT_VERSION = '2024-05-01-preview';

const trim = (url: string) => url.replace(/\/+$/, '');

/**
 * Azure OpenAI (type 3): `<base>/openai/deployments/<deployment>/<path>?api-version=<other>`,
 * the deployment being the mapped model name verbatim (relay.md §5.2). The Responses API has
 * no deployment segment (the model travels in the body). A Cloudflare AI Gateway base already
 * names the resource, so the `/openai/deployments` segments are left out.
 */
export function azureUrl(channel: ChannelTarget, endpoint: Endpoint, model: string): string {
  const base = trim(channel.baseUrl);
  const version = encodeURIComponent(channel.other.trim() || AZURE_DEFAULT_VERSION);
  if (base.startsWith('https://gateway.ai.cloudflare.com')) return `${base}/${model}/${endpoint}?api-version=${version}`;
  if (endpoint === 'responses') return `${base}/openai/responses?api-version=${version}`;
  return `${base}/openai/deployments/${encodeURIComponent(model)}/${endpoint}?api-version=${version}`;
}

/** Deployment listing (relay.md §5.2 fixes this API version). */
export const azureModels = (channel: ChannelTarget) => `${trim(channel.baseUrl)}/openai/deployments?api-version=2023-03-15-preview`;

/** Azure OpenAI v1 (type 55): `<base>/openai/v1/<path>`, `other` (`preview`, `latest`) as api-version when set. */
export function azureV1Url(channel: ChannelTarget, endpoint: Endpoint | 'models', _model: string): string {
  const base = trim(channel.baseUrl).replace(/\/openai(\/v1)?$/, '');
  const version = channel.other.trim();
  return `${base}/openai/v1/${endpoint}${version ? `?api-version=${encodeURIComponent(version)}` : ''}`;
}

/** Azure Databricks model serving: the endpoint name is the model (relay.md §5.1). */
export const databricksUrl = (channel: ChannelTarget, _endpoint: Endpoint, model: string) =>
  `${trim(channel.baseUrl)}/serving-endpoints/${encodeURIComponent(model)}/invocations`;

function cloudflareAccount(channel: ChannelTarget): string {
  const [account, token] = channel.key.split('|');
  if (!account || !token) throw new HubError(503, 'Cloudflare channel key must be accountId|apiToken', { code: 'channel_misconfigured', retryable: true });
  return encodeURIComponent(account.trim());
}

/** Workers AI's OpenAI-compatible endpoints under the account named by the key; images run the model directly. */
export const cloudflareUrl = (channel: ChannelTarget, endpoint: Endpoint, model: string) =>
  endpoint === 'images/generations'
    ? `${trim(channel.baseUrl)}/client/v4/accounts/${cloudflareAccount(channel)}/ai/run/${model}`
    : `${trim(channel.baseUrl)}/client/v4/accounts/${cloudflareAccount(channel)}/ai/v1/${endpoint}`;

/** OpenAI image request → Workers AI text-to-image input (prompt, optional steps and seed). */
export function cloudflareImageBody(endpoint: Endpoint, body: Record<string, unknown>): Record<string, unknown> {
  if (endpoint !== 'images/generations') return body;
  const out: Record<string, unknown> = { prompt: body.prompt };
  if (typeof body.steps === 'number') out.steps = body.steps;
  if (typeof body.seed === 'number') out.seed = body.seed;
  return out;
}

/** Workers AI `{result: {image}}` (base64, as the FLUX models answer) → OpenAI's image answer. */
export function cloudflareImageAnswer(endpoint: Endpoint, json: unknown): unknown {
  if (endpoint !== 'images/generations') return json;
  const r = json as { success?: boolean; result?: { image?: string }; errors?: Array<{ message?: string }> };
  if (r.success === false || !r.result?.image) {
    throw new HubError(502, `Provider API error: ${r.errors?.map((e) => e.message).join('; ') || 'no image in the answer'}`, { type: 'upstream_error' });
  }
  return { created: Math.floor(Date.now() / 1000), data: [{ b64_json: r.result.image }] };
}

export const cloudflareModelsUrl = (channel: ChannelTarget) =>
  `${trim(channel.baseUrl)}/client/v4/accounts/${cloudflareAccount(channel)}/ai/models/search?per_page=1000`;

export function cloudflareModels(json: unknown): string[] {
  const result = (json as { result?: Array<{ name?: unknown }> } | null)?.result;
  return Array.isArray(result) ? result.map((m) => m.name).filter((n): n is string => typeof n === 'string') : [];
}

const SPARK_DOMAINS: Record<string, string> = { 'v1.1': 'general', 'v2.1': 'generalv2', 'v3.1': 'generalv3', 'v3.5': 'generalv3.5', 'v4.0': '4.0Ultra' };

/**
 * `SparkDesk-v3.5` → `generalv3.5` (relay.md §5.9 domains): the version from the model name,
 * else the channel's `other`, else v1.1; names other than SparkDesk pass through.
 */
export function sparkModel(model: string, other = ''): string {
  const dash = model.indexOf('-');
  if (!model.startsWith('SparkDesk')) return model;
  const version = dash >= 0 ? model.slice(dash + 1) : other.trim() || 'v1.1';
  return SPARK_DOMAINS[version] ?? `general${version}`;
}
