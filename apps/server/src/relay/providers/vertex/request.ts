import { HubError } from '../../../common/errors.js';
import type { Dialect } from '../types.js';

/** `other` of a Vertex channel: `Region|ProjectID` (the project may also come from the key file). */
export function parseVertexOther(other: string, fallbackProject?: string): { region: string; project: string } {
  const [region = '', project = ''] = other.split('|').map((p) => p.trim());
  const chosen = project || fallbackProject || '';
  if (!region || !chosen) throw new HubError(503, 'vertex channel needs other = Region|ProjectID', { code: 'channel_misconfigured', retryable: true });
  return { region, project: chosen };
}

/** Which wire format a model speaks on Vertex: Gemini models Google's, Claude models Anthropic's. */
export function vertexDialect(model: string): Exclude<Dialect, 'openai'> {
  if (model.startsWith('gemini')) return 'gemini';
  if (model.startsWith('claude')) return 'anthropic';
  throw new HubError(503, `vertex serves gemini* and claude* models, not ${model}`, { code: 'channel_misconfigured', retryable: true });
}

/** Anthropic dated names whose Vertex id carries a version tag (`claude-3-5-sonnet-v2@20241022`). */
const VERTEX_CLAUDE_TAG: Record<string, string> = {
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
};

/** Maps an Anthropic model name to its Vertex id: the date after `@` (`claude-sonnet-4-20250514` → `claude-sonnet-4@20250514`). */
export function vertexClaudeModel(model: string): string {
  if (VERTEX_CLAUDE_TAG[model]) return VERTEX_CLAUDE_TAG[model];
  if (model.includes('@')) return model;
  return model.replace(/-(\d{8})$/, '@$1');
}

export interface VertexUrlInput {
  /** Channel base URL; empty means Google's regional endpoint. */
  baseUrl: string;
  region: string;
  project: string;
  model: string;
  stream: boolean;
}

/** Vertex's host for a region (`global` has no region prefix), unless the channel names its own base URL. */
export function vertexHost(baseUrl: string, region: string): string {
  return baseUrl.replace(/\/+$/, '') || (region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`);
}

/** The endpoint of a model on Vertex. */
export function vertexUrl(input: VertexUrlInput): string {
  const host = vertexHost(input.baseUrl, input.region);
  const base = `${host}/v1/projects/${encodeURIComponent(input.project)}/locations/${encodeURIComponent(input.region)}/publishers`;
  if (vertexDialect(input.model) === 'gemini') {
    return `${base}/google/models/${encodeURIComponent(input.model)}:${input.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
  }
  return `${base}/anthropic/models/${encodeURIComponent(vertexClaudeModel(input.model)).replace('%40', '@')}:${input.stream ? 'streamRawPredict' : 'rawPredict'}`;
}

/** The Claude body Vertex takes: the model is in the URL, the version in the body. */
export function vertexClaudeBody(body: Record<string, unknown>, stream: boolean): Record<string, unknown> {
  const { model: _model, stream: _stream, ...rest } = body;
  return { ...rest, anthropic_version: 'vertex-2023-10-16', ...(stream ? { stream: true } : {}) };
}

/** One page of Google's publisher models (Model Garden's list exists only in v1beta1). */
export function vertexModelsUrl(baseUrl: string, region: string, pageToken?: string): string {
  const query = new URLSearchParams({ pageSize: '100', ...(pageToken ? { pageToken } : {}) });
  return `${vertexHost(baseUrl, region)}/v1beta1/publishers/google/models?${query}`;
}
