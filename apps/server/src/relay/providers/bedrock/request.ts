import { HubError } from '../../../common/errors.js';
import { signRequest } from './sigv4.js';

/** A Bedrock channel key: `Region|AccessKeyID|SecretAccessKey[|SessionToken]` or `Region|APIKey`. */
export type BedrockKey =
  | { region: string; kind: 'sigv4'; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | { region: string; kind: 'api-key'; apiKey: string };

const misconfigured = (message: string) => new HubError(503, message, { code: 'channel_misconfigured', retryable: true });

export function parseBedrockKey(key: string): BedrockKey {
  const parts = key.split('|').map((p) => p.trim());
  if (parts.some((p) => !p)) throw misconfigured('bedrock key has an empty part (expected Region|AccessKeyID|SecretAccessKey[|SessionToken] or Region|APIKey)');
  if (parts.length === 2) return { region: parts[0], kind: 'api-key', apiKey: parts[1] };
  if (parts.length === 3 || parts.length === 4) {
    return { region: parts[0], kind: 'sigv4', accessKeyId: parts[1], secretAccessKey: parts[2], ...(parts[3] ? { sessionToken: parts[3] } : {}) };
  }
  throw misconfigured('bedrock key must be Region|AccessKeyID|SecretAccessKey[|SessionToken] or Region|APIKey');
}

/** Anthropic dated names whose Bedrock id is not the plain `-v1:0` suffix. */
const BEDROCK_VERSION: Record<string, string> = {
  'claude-3-5-sonnet-20241022': 'v2:0',
};

const REGION_PREFIX = /^(global|us|eu|apac)\./;

/**
 * Maps an Anthropic model name to its Bedrock model id (`claude-sonnet-4-20250514` →
 * `anthropic.claude-sonnet-4-20250514-v1:0`), keeping a cross-region prefix
 * (`us.` …). Bedrock ids and undated names pass as given; a result that is not
 * an Anthropic model is refused.
 */
export function bedrockModelId(model: string): string {
  const prefix = REGION_PREFIX.exec(model)?.[0] ?? '';
  const name = model.slice(prefix.length);
  const id = /^claude-[a-z0-9-]+-\d{8}$/.test(name) ? `anthropic.${name}-${BEDROCK_VERSION[name] ?? 'v1:0'}` : name;
  if (!id.includes('anthropic')) throw misconfigured('bedrock provider not found');
  return prefix + id;
}

/** Top-level fields Bedrock's Claude schema permits; any other key is a 400 "extraneous key". */
const BEDROCK_FIELDS = new Set([
  'anthropic_version', 'anthropic_beta', 'max_tokens', 'system', 'messages', 'temperature', 'top_p', 'top_k',
  'tools', 'tool_choice', 'stop_sequences', 'thinking', 'metadata',
]);

/**
 * Betas Bedrock's InvokeModel accepts (AWS documentation); any other one fails
 * the whole request with 400 "invalid beta flag", and clients such as Claude
 * Code send several, so the rest are dropped (pitfalls: anthropic-beta rows).
 */
export const BEDROCK_BETAS: ReadonlySet<string> = new Set([
  'computer-use-2024-10-22', 'computer-use-2025-01-24', 'token-efficient-tools-2025-02-19', 'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19', 'dev-full-thinking-2025-05-14', 'context-1m-2025-08-07', 'context-management-2025-06-27',
  'effort-2025-11-24', 'tool-search-tool-2025-10-19', 'tool-examples-2025-10-29',
]);

/**
 * The Claude body Bedrock takes: no `model` (it is in the path), no `stream`
 * (the action says it), `anthropic_version: bedrock-2023-05-31`, the supported
 * betas in the body as `anthropic_beta` (Bedrock ignores the header).
 */
export function bedrockClaudeBody(body: Record<string, unknown>, betas: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { anthropic_version: 'bedrock-2023-05-31' };
  for (const [k, v] of Object.entries(body)) if (BEDROCK_FIELDS.has(k) && k !== 'anthropic_version') out[k] = v;
  const merged = [...new Set([...(Array.isArray(body.anthropic_beta) ? body.anthropic_beta.map(String) : []), ...betas])].filter((b) => BEDROCK_BETAS.has(b));
  if (merged.length) out.anthropic_beta = merged;
  else delete out.anthropic_beta;
  return out;
}

/** `anthropic-beta` header values (comma-separated, possibly repeated) as a list. */
export function betaList(header: string | string[] | undefined): string[] {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

export interface BedrockRequestInput {
  key: string;
  /** Channel base URL; empty means the regional AWS endpoint. */
  baseUrl: string;
  model: string;
  stream: boolean;
  body: Record<string, unknown>;
  betas: string[];
  now: Date;
}

type SignedPost = { url: string; headers: Record<string, string>; body: string };

/** A POST to Bedrock Runtime (`path` after the host), signed with SigV4 or carrying the API key. */
function runtimePost(keyText: string, baseUrl: string, path: string, body: string, accept: string, now: Date): SignedPost {
  const key = parseBedrockKey(keyText);
  const url = new URL((baseUrl || `https://bedrock-runtime.${key.region}.amazonaws.com`).replace(/\/+$/, '') + path);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept };
  if (key.kind === 'api-key') return { url: url.toString(), headers: { ...headers, authorization: `Bearer ${key.apiKey}` }, body };
  const signed = signRequest(
    { method: 'POST', host: url.host, path: url.pathname, headers, body, now },
    { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey, sessionToken: key.sessionToken, region: key.region, service: 'bedrock' },
  );
  // The HTTP client sets Host itself from the URL (the same value that was signed).
  delete signed.host;
  return { url: url.toString(), headers: signed, body };
}

/** URL, signed headers and the exact body bytes of an InvokeModel(WithResponseStream) call. */
export function buildBedrockRequest(input: BedrockRequestInput): SignedPost {
  const path = `/model/${encodeURIComponent(bedrockModelId(input.model))}/${input.stream ? 'invoke-with-response-stream' : 'invoke'}`;
  const body = JSON.stringify(bedrockClaudeBody(input.body, input.betas));
  return runtimePost(input.key, input.baseUrl, path, body, input.stream ? 'application/vnd.amazon.eventstream' : 'application/json', input.now);
}

/**
 * CountTokens for a Messages body: the InvokeModel body it would send, base64 in
 * `input.invokeModel.body`, answered as `{inputTokens}`. Counting takes the bare
 * foundation-model id (cross-region prefixes are refused), and the InvokeModel
 * schema requires `max_tokens`, which does not change the input count.
 */
export function buildBedrockCountRequest(input: Omit<BedrockRequestInput, 'stream'>): SignedPost {
  const path = `/model/${encodeURIComponent(bedrockModelId(input.model).replace(REGION_PREFIX, ''))}/count-tokens`;
  const invoke = bedrockClaudeBody(input.body, input.betas);
  invoke.max_tokens ??= 1;
  const body = JSON.stringify({ input: { invokeModel: { body: Buffer.from(JSON.stringify(invoke)).toString('base64') } } });
  return runtimePost(input.key, input.baseUrl, path, body, 'application/json', input.now);
}

/**
 * ListFoundationModels (control plane: `bedrock.<region>` rather than
 * `bedrock-runtime.<region>`), Anthropic text models only.
 */
export function bedrockModelsRequest(key: string, baseUrl: string, now: Date): { url: string; headers: Record<string, string> } {
  const parsed = parseBedrockKey(key);
  const base = (baseUrl.replace('://bedrock-runtime.', '://bedrock.') || `https://bedrock.${parsed.region}.amazonaws.com`).replace(/\/+$/, '');
  const url = new URL(`${base}/foundation-models?byProvider=Anthropic&byOutputModality=TEXT`);
  const headers = { accept: 'application/json' };
  if (parsed.kind === 'api-key') return { url: url.toString(), headers: { ...headers, authorization: `Bearer ${parsed.apiKey}` } };
  const signed = signRequest(
    { method: 'GET', host: url.host, path: url.pathname, query: url.search.slice(1), headers, body: '', now },
    { accessKeyId: parsed.accessKeyId, secretAccessKey: parsed.secretAccessKey, sessionToken: parsed.sessionToken, region: parsed.region, service: 'bedrock' },
  );
  delete signed.host;
  return { url: url.toString(), headers: signed };
}

/** Bedrock model ids → the Anthropic names channels list (`anthropic.claude-x-20250101-v1:0` → `claude-x-20250101`). */
export function anthropicNamesOf(summaries: unknown): string[] {
  if (!Array.isArray(summaries)) return [];
  const names = summaries
    .map((m) => (m && typeof m === 'object' ? (m as { modelId?: unknown }).modelId : undefined))
    .filter((id): id is string => typeof id === 'string' && id.startsWith('anthropic.') && !/:\d+k$/.test(id))
    .map((id) => id.replace(/^anthropic\./, '').replace(/-v\d+(:\d+)?$/, ''));
  return [...new Set(names)];
}
