import type { IncomingMessage, ServerResponse } from 'node:http';
import { signature } from '../../src/relay/providers/bedrock/sigv4.js';
import { BEDROCK_BETAS } from '../../src/relay/providers/bedrock/request.js';
import { FakeHttp, sendJson, sleep, writePaced, type Received } from './fake-http.js';
import { checkClaudeRequest, claudeAnswer, claudeCountTokens, claudeEvents, claudeMessage, type ClaudeBehaviour } from './claude-answer.js';
import { bedrockChunk, bedrockException } from './eventstream-encode.js';

export type { ClaudeBehaviour } from './claude-answer.js';

/** Bedrock's own failure modes beside the Claude ones. */
export interface BedrockBehaviour extends ClaudeBehaviour {
  /** Open the event stream with this exception as its first frame (how Bedrock reports throttling mid-call). */
  streamException?: { type: string; message: string };
  /** Answer a stream request with this JSON body and status 200 instead of an event stream. */
  plainStreamAnswer?: unknown;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** Top-level keys Bedrock's Claude schema permits. */
const PERMITTED = new Set(['anthropic_version', 'anthropic_beta', 'max_tokens', 'system', 'messages', 'temperature', 'top_p', 'top_k', 'tools', 'tool_choice', 'stop_sequences', 'thinking', 'metadata']);

const INVOKE_PATH = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|count-tokens)$/;
const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

/** Errors as Bedrock sends them: `{message}` with the type in `x-amzn-ErrorType`. */
function bedrockError(res: ServerResponse, status: number, message: string, type = ERROR_TYPES[status] ?? 'InternalServerException') {
  sendJson(res, { message }, status, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'fake-request-id' });
}

/**
 * A fake of Bedrock Runtime for Claude models on 127.0.0.1: InvokeModel and
 * InvokeModelWithResponseStream (binary event stream of base64 Claude events).
 * Every request must carry a valid SigV4 signature (service `bedrock`, the
 * fake's region) made with a registered secret, or a registered API key as
 * Bearer. Behaviours are chosen by access key id (or API key).
 */
export class FakeBedrock extends FakeHttp<BedrockBehaviour> {
  private secrets = new Map<string, { secret: string; sessionToken?: string }>();
  private apiKeys = new Set<string>();

  constructor(readonly region = 'us-east-1') {
    super();
  }

  /** Registers IAM credentials; answers the channel key for them. */
  addCredentials(accessKeyId: string, secretAccessKey: string, sessionToken?: string): string {
    this.secrets.set(accessKeyId, { secret: secretAccessKey, sessionToken });
    return [this.region, accessKeyId, secretAccessKey, ...(sessionToken ? [sessionToken] : [])].join('|');
  }

  /** Registers a Bedrock API key; answers the channel key for it. */
  addApiKey(apiKey: string): string {
    this.apiKeys.add(apiKey);
    return `${this.region}|${apiKey}`;
  }

  protected keyOf(req: IncomingMessage): string {
    const auth = String(req.headers.authorization ?? '');
    if (auth.startsWith('Bearer ')) return auth.slice(7);
    return AUTH.exec(auth)?.[1] ?? '';
  }

  /** Recomputes the signature from the request as received; answers why it is refused, or null. */
  private authFailure(req: Received, rawPath: string): [number, string, string] | null {
    const auth = String(req.headers.authorization ?? '');
    if (auth.startsWith('Bearer ')) return this.apiKeys.has(auth.slice(7)) ? null : [403, 'Invalid API Key format: Must start with pre-defined prefix', 'UnrecognizedClientException'];
    const m = AUTH.exec(auth);
    if (!m) return [403, 'Missing Authentication Token', 'MissingAuthenticationTokenException'];
    const [, accessKeyId, day, region, service, signedList, given] = m;
    const creds = this.secrets.get(accessKeyId);
    if (!creds) return [403, 'The security token included in the request is invalid.', 'UnrecognizedClientException'];
    const stamp = String(req.headers['x-amz-date'] ?? '');
    const at = new Date(`${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`);
    if (Number.isNaN(at.getTime()) || stamp.slice(0, 8) !== day) return [403, 'Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP', 'InvalidSignatureException'];
    if (Math.abs(Date.now() - at.getTime()) > 5 * 60_000) return [403, `Signature expired: ${stamp} is now earlier than the allowed window.`, 'InvalidSignatureException'];
    if (region !== this.region || service !== 'bedrock') return [403, `Credential should be scoped to a valid region and service 'bedrock'.`, 'InvalidSignatureException'];
    const signed = signedList.split(';');
    if (!signed.includes('host') || !signed.includes('x-amz-date')) return [403, "'Host' and 'X-Amz-Date' must be signed", 'InvalidSignatureException'];
    const token = req.headers['x-amz-security-token'];
    if ((creds.sessionToken ?? undefined) !== token || (token && !signed.includes('x-amz-security-token'))) return [403, 'The security token included in the request is invalid.', 'UnrecognizedClientException'];
    const headers = Object.fromEntries(signed.map((h) => [h, String(req.headers[h] ?? '')]));
    const expected = signature(
      { method: req.method, host: String(req.headers.host), path: rawPath, query: req.query.toString(), headers, body: req.raw, now: at },
      { accessKeyId, secretAccessKey: creds.secret, region, service },
      signed,
    );
    if (expected.signature !== given) {
      return [403, 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.', 'InvalidSignatureException'];
    }
    return null;
  }

  /** ListFoundationModels, filtered by provider like the real one (a sample of Bedrock's catalogue). */
  private foundationModels(req: Received, res: ServerResponse) {
    const provider = req.query.get('byProvider')?.toLowerCase();
    const summaries = [
      'anthropic.claude-3-5-sonnet-20241022-v2:0',
      'anthropic.claude-3-haiku-20240307-v1:0',
      'anthropic.claude-3-haiku-20240307-v1:0:200k',
      'anthropic.claude-sonnet-4-20250514-v1:0',
      'meta.llama3-70b-instruct-v1:0',
    ]
      .map((modelId) => ({ modelId, modelArn: `arn:aws:bedrock:${this.region}::foundation-model/${modelId}`, providerName: modelId.startsWith('anthropic.') ? 'Anthropic' : 'Meta', outputModalities: ['TEXT'] }))
      .filter((m) => !provider || m.providerName.toLowerCase() === provider);
    sendJson(res, { modelSummaries: summaries });
  }

  /** Checks a Claude InvokeModel body as the invoke routes do; answers why it is refused, or null. */
  private refusedBody(body: any): string | null {
    if (!body || typeof body !== 'object') return 'Malformed input request, please reformat your input and try again.';
    const extraneous = Object.keys(body).find((k) => !PERMITTED.has(k));
    if (extraneous) return `Malformed input request: #: extraneous key [${extraneous}] is not permitted, please reformat your input and try again.`;
    const betas: unknown[] = Array.isArray(body.anthropic_beta) ? body.anthropic_beta : [];
    if (betas.some((b) => !BEDROCK_BETAS.has(String(b)))) return 'invalid beta flag';
    return checkClaudeRequest(body, 'bedrock')?.message ?? null;
  }

  /** CountTokens: `{input:{invokeModel:{body: base64 InvokeModel body}}}` → `{inputTokens}`, bare model ids only. */
  private countTokens(req: Received, res: ServerResponse, modelId: string) {
    if (/^(global|us|eu|apac)\./.test(modelId)) return bedrockError(res, 400, "The provided model doesn't support counting tokens.");
    const encoded = req.body?.input?.invokeModel?.body;
    if (typeof encoded !== 'string') return bedrockError(res, 400, '1 validation error detected: Value null at \'input\' failed to satisfy constraint: Member must not be null');
    let body: any;
    try {
      body = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
    } catch {
      return bedrockError(res, 400, 'Malformed input request, please reformat your input and try again.');
    }
    const refused = this.refusedBody(body);
    if (refused) return bedrockError(res, 400, refused);
    sendJson(res, { inputTokens: claudeCountTokens(body) }, 200, { 'x-amzn-requestid': 'fake-request-id' });
  }

  protected async handle(req: Received, res: ServerResponse) {
    // The signature covers the path as sent (still percent-encoded), which URL parsing would keep as is.
    const rawPath = req.path;
    const refused = this.authFailure(req, rawPath);
    if (refused) return bedrockError(res, refused[0], refused[1], refused[2]);
    const b = this.behaviour(req.key);
    if (b.delayMs) await sleep(b.delayMs);
    if (b.status && b.status >= 400) {
      if (b.errorBody !== undefined) return sendJson(res, b.errorBody, b.status, b.retryAfter ? { 'retry-after': String(b.retryAfter) } : {});
      return bedrockError(res, b.status, b.status === 429 ? 'Too many requests, please wait before trying again.' : `fake ${ERROR_TYPES[b.status] ?? 'failure'}`);
    }
    if (req.method === 'GET' && rawPath === '/foundation-models') return this.foundationModels(req, res);
    const match = INVOKE_PATH.exec(rawPath);
    if (req.method !== 'POST' || !match) return bedrockError(res, 404, `Unknown operation ${req.method} ${rawPath}`, 'UnknownOperationException');
    const modelId = decodeURIComponent(match[1]);
    if (!modelId.includes('anthropic.')) return bedrockError(res, 400, 'The provided model identifier is invalid.');
    if (match[2] === 'count-tokens') return this.countTokens(req, res, modelId);
    const badBody = this.refusedBody(req.body);
    if (badBody) return bedrockError(res, 400, badBody);
    const model = modelId.replace(/^(global|us|eu|apac)\./, '').replace(/^anthropic\./, '').replace(/-v\d+:\d+$/, '');
    const answer = claudeAnswer(req.body, b);
    const counts = { 'x-amzn-bedrock-input-token-count': String(answer.usage.input_tokens), 'x-amzn-bedrock-output-token-count': String(answer.usage.output_tokens), 'x-amzn-requestid': 'fake-request-id' };
    if (match[2] === 'invoke') return sendJson(res, claudeMessage(model, answer), 200, counts);
    if (b.plainStreamAnswer !== undefined) return sendJson(res, b.plainStreamAnswer, 200, { 'x-amzn-requestid': 'fake-request-id' });
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'fake-request-id' });
    if (b.streamException) {
      res.end(bedrockException(b.streamException.type, b.streamException.message));
      return;
    }
    const metrics = { inputTokenCount: answer.usage.input_tokens, outputTokenCount: answer.usage.output_tokens, invocationLatency: 120, firstByteLatency: 40 };
    const pieces = claudeEvents(model, answer, b)
      .filter((e) => e.type !== 'ping') // Bedrock does not relay pings
      .map((e) => {
        if (e.type === 'error') return { text: bedrockException('modelStreamErrorException', String((e.data.error as any)?.message)), content: false };
        const data = e.type === 'message_stop' ? { ...e.data, 'amazon-bedrock-invocationMetrics': metrics } : e.data;
        return { text: bedrockChunk(data), content: e.content };
      });
    if (await writePaced(res, pieces, b)) res.end();
  }
}
