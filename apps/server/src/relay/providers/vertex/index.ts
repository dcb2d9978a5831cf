import { HubError } from '../../../common/errors.js';
import { anthropic, anthropicError } from '../anthropic/index.js';
import { gemini, googleError } from '../gemini/index.js';
import type { ChannelTarget, Endpoint, FormPoster, ProviderAdapter, UpstreamRequest } from '../types.js';
import { parseVertexOther, vertexClaudeBody, vertexModelsUrl, vertexUrl } from './request.js';
import { parseServiceAccount } from './service-account.js';
import { VertexTokenCache } from './token.js';

/** Access tokens shared by every Vertex channel of this process, per service account. */
const tokens = new VertexTokenCache();

function urlFor(channel: ChannelTarget, model: string, stream: boolean): string {
  const sa = parseServiceAccount(channel.key);
  const { region, project } = parseVertexOther(channel.other, sa.projectId);
  return vertexUrl({ baseUrl: channel.baseUrl, region, project, model, stream });
}

async function withToken(req: UpstreamRequest, channel: ChannelTarget, post: FormPoster): Promise<UpstreamRequest> {
  const token = await tokens.get(parseServiceAccount(channel.key), post);
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } };
}

/** Pages through Google's publisher models; Vertex serves the `gemini*` ones. */
async function listVertexModels(channel: ChannelTarget, get: (req: UpstreamRequest) => Promise<unknown>, configured: string[]): Promise<string[]> {
  const { region, project } = parseVertexOther(channel.other, parseServiceAccount(channel.key).projectId);
  const models: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = (await get({ url: vertexModelsUrl(channel.baseUrl, region, pageToken), headers: { ...channel.headers, 'x-goog-user-project': project }, body: undefined })) as {
      publisherModels?: Array<{ name?: unknown }>;
      nextPageToken?: unknown;
    } | null;
    for (const m of page?.publisherModels ?? []) {
      const id = typeof m.name === 'string' ? m.name.split('/').pop()! : '';
      if (id.startsWith('gemini')) models.push(id);
    }
    pageToken = typeof page?.nextPageToken === 'string' && page.nextPageToken ? page.nextPageToken : undefined;
  } while (pageToken && models.length < 5000);
  // Claude models are not in Google's catalogue and Anthropic's publisher listing is not a documented API,
  // so the channel's own configured claude* models are kept (no static list to go stale).
  return [...models, ...configured.filter((m) => m.startsWith('claude'))];
}

const unsupported = (endpoint: Endpoint) => new HubError(400, `vertex channels do not serve ${endpoint}`, { code: 'unsupported_endpoint', retryable: true });

/** Gemini models on Vertex: Google's generateContent body, forwarded as it is. */
const vertexGemini: ProviderAdapter = {
  types: [42],
  name: 'vertex',
  dialect: 'gemini',
  endpoints: new Set<Endpoint>(['generateContent']),
  regionalHost: true,
  buildRequest(endpoint, body, channel, opts) {
    if (endpoint !== 'generateContent') throw unsupported(endpoint);
    return { url: urlFor(channel, opts.model, opts.stream), headers: { 'content-type': 'application/json', ...channel.headers }, body };
  },
  parseUsage: gemini.parseUsage,
  createStreamMapper: gemini.createStreamMapper,
  mapError: googleError,
  authorize: withToken,
  listModels: listVertexModels,
};

/** Claude models on Vertex answer Anthropic's errors, but Google's own layer (auth, quota) answers Google's. */
function vertexClaudeError(status: number, body: string): HubError {
  return body.includes('"type":"error"') || body.includes('"type": "error"') ? anthropicError(status, body) : googleError(status, body);
}

/** Claude models on Vertex: the Messages body with Vertex's version, model in the URL (raw/streamRawPredict). */
const vertexClaude: ProviderAdapter = {
  ...vertexGemini,
  dialect: 'anthropic',
  endpoints: new Set<Endpoint>(['messages']),
  buildRequest(endpoint, body, channel, opts) {
    if (endpoint !== 'messages') throw unsupported(endpoint);
    // Betas are passed through: neither Google nor Anthropic documents which ones Vertex accepts (Bedrock's
    // documented list is filtered in its adapter; Anthropic itself takes them all).
    const beta = opts.inbound?.['anthropic-beta'];
    const headers: Record<string, string> = { 'content-type': 'application/json', ...channel.headers };
    if (beta) headers['anthropic-beta'] = Array.isArray(beta) ? beta.join(',') : beta;
    return { url: urlFor(channel, opts.model, opts.stream), headers, body: vertexClaudeBody(body as Record<string, unknown>, opts.stream) };
  },
  parseUsage: anthropic.parseUsage,
  createStreamMapper: anthropic.createStreamMapper,
  mapError: vertexClaudeError,
};

/** Vertex AI (type 42): one channel serves Gemini models in Google's dialect and Claude models in Anthropic's. */
export const vertex: ProviderAdapter = {
  ...vertexGemini,
  forModel: (model) => (model.startsWith('claude') ? vertexClaude : vertexGemini),
};
