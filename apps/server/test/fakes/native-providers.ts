import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash, createHmac } from 'node:crypto';
import { FakeHttp, sendJson, type Received } from './fake-http.js';
import { responses } from './openai-endpoints.js';

export interface NativeBehaviour {
  /** Answer every call with this status and the provider's own error body. */
  status?: number;
}

export const PROMPT_TOKENS = 10;
const WORDS = ['Hello', 'from', 'the', 'provider'];
const TEXT = WORDS.join(' ');

/** Balance answers, in each provider's own shape (relay.md §7.3). */
const BALANCES: Record<string, unknown> = {
  '/user/balance': { is_available: true, balance_infos: [{ currency: 'CNY', total_balance: '42.50', granted_balance: '0', topped_up_balance: '42.50' }] },
  '/v1/users/me/balance': { code: 0, data: { available_balance: 49, voucher_balance: 0, cash_balance: 49 }, scode: '0x0', status: true },
  '/v1/user/info': { code: 20000, message: 'OK', status: true, data: { id: 'u', balance: '1.5', chargeBalance: '2', totalBalance: '3.5' } },
  '/api/v1/credits': { data: { total_credits: 20, total_usage: 4.25 } },
  '/v1/dashboard/billing/subscription': { object: 'billing_subscription', has_payment_method: true, hard_limit_usd: 100 },
  '/v1/dashboard/billing/usage': { object: 'list', total_usage: 1234 },
};

/**
 * One HTTP server speaking several providers' real wire formats, chosen by path:
 * Azure OpenAI deployments (`api-key` header, `api-version` required), Ollama
 * (`/api/chat` NDJSON streams, `/api/embed`, `/api/tags`), Cohere v2 (`/v2/chat`
 * named SSE events, `/v2/rerank`, `/v1/models`), Ali DashScope generation (SSE with
 * `event:result`), Baidu ERNIE (client-credential token, `error_code` inside 200 answers,
 * `is_end` streams), Tencent Hunyuan (TC3 signature checked), Coze v3 chat events, Azure Speech SSML, MiniMax T2A (hex audio in JSON), Stability AI image forms, Replicate predictions, and the balance APIs of DeepSeek, Moonshot, SiliconFlow,
 * OpenRouter and OpenAI's dashboard billing. Every answer: prompt 10 tokens, 4 words.
 */
export class FakeNativeProviders extends FakeHttp<NativeBehaviour> {
  protected keyOf(req: IncomingMessage, query: URLSearchParams): string {
    const baidu = query.get('access_token') ?? query.get('client_id');
    return baidu ?? String(req.headers['api-key'] ?? req.headers['ocp-apim-subscription-key'] ?? String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
  }

  protected async handle(req: Received, res: ServerResponse): Promise<void> {
    const b = this.behaviour(req.key);
    if (req.path in BALANCES) return sendJson(res, BALANCES[req.path]);
    if (req.path.startsWith('/openai/')) return this.azure(req, res, b);
    if (req.path.startsWith('/stable-image/generate/')) return this.stability(req, res);
    if (req.path === '/v3/chat') return this.coze(req, res);
    if (req.path === '/' && req.headers['x-tc-action']) return this.hunyuan(req, res);
    if (req.path === '/cognitiveservices/v1') return this.azureSpeech(req, res);
    if (req.path === '/v1/t2a_v2') {
      if (req.key !== 'mm-key') return sendJson(res, { base_resp: { status_code: 1004, status_msg: 'login fail: Please carry the API secret key' } });
      return sendJson(res, { data: { audio: Buffer.from(`AUDIO:${req.body.text}`).toString('hex'), status: 2 }, extra_info: { audio_format: req.body.audio_setting.format, usage_characters: 2 }, trace_id: 't', base_resp: { status_code: 0, status_msg: 'success' } });
    }
    if (/^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(req.path)) return this.replicate(req, res);
    if (req.path === '/oauth/2.0/token' || req.path.startsWith('/rpc/2.0/')) return this.ernie(req, res);
    if (req.path.startsWith('/api/v1/services/')) return this.dashscope(req, res, b);
    if (req.path.startsWith('/api/')) return this.ollama(req, res, b);
    if (req.path.startsWith('/v2/') || req.path === '/v1/models') return this.cohere(req, res, b);
    sendJson(res, { error: { message: `fake has no ${req.path}` } }, 404);
  }

  private azure(req: Received, res: ServerResponse, b: NativeBehaviour) {
    if (!req.query.get('api-version')) return sendJson(res, { error: { code: '404', message: 'Resource not found' } }, 404);
    if (b.status) return sendJson(res, { error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' } }, b.status);
    if (req.path === '/openai/deployments') return sendJson(res, { data: [{ id: 'gpt4o-deploy', model: 'gpt-4o', object: 'deployment' }], object: 'list' });
    // The Responses API has no deployment in the path: the deployment is the body's model.
    if (req.path === '/openai/responses') return responses(res, req.body, WORDS, false);
    const m = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(req.path);
    if (!m) return sendJson(res, { error: { code: '404', message: 'Resource not found' } }, 404);
    const base = { id: 'chatcmpl-az', created: 1700000000, model: decodeURIComponent(m[1]) };
    const usage = { prompt_tokens: PROMPT_TOKENS, completion_tokens: WORDS.length, total_tokens: PROMPT_TOKENS + WORDS.length };
    if (!req.body.stream) {
      return sendJson(res, { ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' }], usage });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: unknown, finish: string | null) => ({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
    for (const [i, w] of WORDS.entries()) res.write(`data: ${JSON.stringify(chunk({ content: i ? ` ${w}` : w }, null))}\n\n`);
    res.write(`data: ${JSON.stringify(chunk({}, 'stop'))}\n\n`);
    if (req.body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  private ollama(req: Received, res: ServerResponse, b: NativeBehaviour) {
    if (b.status) return sendJson(res, { error: 'unauthorized' }, b.status);
    if (req.path === '/api/tags') return sendJson(res, { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', size: 1 }, { name: 'qwen3:8b', model: 'qwen3:8b', size: 2 }] });
    if (req.path === '/api/embed') {
      const inputs = Array.isArray(req.body.input) ? req.body.input : [req.body.input];
      return sendJson(res, { model: req.body.model, embeddings: inputs.map(() => [0.5, -0.25]), prompt_eval_count: 3 });
    }
    if (req.path !== '/api/chat') return sendJson(res, { error: `unknown path ${req.path}` }, 404);
    const base = { model: req.body.model, created_at: '2025-01-01T00:00:00Z' };
    const done = { ...base, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: PROMPT_TOKENS, eval_count: WORDS.length };
    // Ollama streams unless the request says `stream: false`.
    if (req.body.stream === false) return sendJson(res, { ...done, message: { role: 'assistant', content: TEXT } });
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const [i, w] of WORDS.entries()) res.write(`${JSON.stringify({ ...base, message: { role: 'assistant', content: i ? ` ${w}` : w }, done: false })}\n`);
    res.end(`${JSON.stringify(done)}\n`);
  }

  private cohere(req: Received, res: ServerResponse, b: NativeBehaviour) {
    if (b.status) return sendJson(res, { id: 'e', message: 'invalid api token' }, b.status);
    if (req.path === '/v1/models') return sendJson(res, { models: [{ name: 'command-r-plus', endpoints: ['chat'] }, { name: 'command-a-03-2025', endpoints: ['chat'] }] });
    if (req.path === '/v2/rerank') {
      const results = (req.body.documents as string[]).map((_, index) => ({ index, relevance_score: 1 / (index + 1) })).slice(0, req.body.top_n ?? undefined);
      return sendJson(res, { id: 'rr-1', results, meta: { billed_units: { search_units: 1 } } });
    }
    if (req.path !== '/v2/chat') return sendJson(res, { message: 'not found' }, 404);
    const usage = { billed_units: { input_tokens: PROMPT_TOKENS, output_tokens: WORDS.length }, tokens: { input_tokens: PROMPT_TOKENS + 200, output_tokens: WORDS.length } };
    if (!req.body.stream) {
      return sendJson(res, { id: 'co-1', finish_reason: 'COMPLETE', message: { role: 'assistant', content: [{ type: 'text', text: TEXT }] }, usage });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const ev = (type: string, rest: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...rest })}\n\n`);
    ev('message-start', { id: 'co-1', delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } } });
    ev('content-start', { index: 0, delta: { message: { content: { type: 'text', text: '' } } } });
    for (const [i, w] of WORDS.entries()) ev('content-delta', { index: 0, delta: { message: { content: { text: i ? ` ${w}` : w } } } });
    ev('content-end', { index: 0 });
    ev('message-end', { delta: { finish_reason: 'COMPLETE', usage } });
    res.end();
  }

  private ernie(req: Received, res: ServerResponse) {
    if (req.path === '/oauth/2.0/token') {
      if (req.query.get('client_secret') !== 'good-secret') return sendJson(res, { error: 'invalid_client', error_description: 'unknown client id' }, 401);
      return sendJson(res, { access_token: `tok-${req.query.get('client_id')}`, expires_in: 2592000, scope: 'public' });
    }
    if (!req.query.get('access_token')?.startsWith('tok-')) return sendJson(res, { error_code: 110, error_msg: 'Access token invalid or no longer valid' });
    const usage = (out: number) => ({ prompt_tokens: PROMPT_TOKENS, completion_tokens: out, total_tokens: PROMPT_TOKENS + out });
    const base = { id: 'as-1', object: 'chat.completion', created: 1700000000 };
    if (!req.body.stream) return sendJson(res, { ...base, result: TEXT, is_truncated: false, need_clear_history: false, usage: usage(WORDS.length) });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [i, w] of WORDS.entries()) {
      const last = i === WORDS.length - 1;
      res.write(`data: ${JSON.stringify({ ...base, sentence_id: i, is_end: last, is_truncated: false, result: i ? ` ${w}` : w, need_clear_history: false, usage: usage(i + 1) })}\n\n`);
    }
    res.end();
  }

  private azureSpeech(req: Received, res: ServerResponse) {
    if (req.headers['content-type'] !== 'application/ssml+xml' || !String(req.body).startsWith('<speak')) {
      res.writeHead(400);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'audio/mpeg' });
    res.end(Buffer.from('ID3fake-mp3'));
  }

  /** Checks the TC3-HMAC-SHA256 signature of secret id `hy-id` (secret `hy-secret`) as Tencent Cloud does. */
  private hunyuan(req: Received, res: ServerResponse) {
    const fail = (code: string, message: string) => sendJson(res, { Response: { Error: { Code: code, Message: message }, RequestId: 'r' } });
    const auth = String(req.headers.authorization ?? '');
    const m = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/hunyuan\/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$/.exec(auth);
    if (!m || m[1] !== 'hy-id') return fail('AuthFailure.SecretIdNotFound', 'The SecretId is not found');
    const hash = (t: string) => createHash('sha256').update(t).digest('hex');
    const mac = (k: string | Buffer, t: string) => createHmac('sha256', k).update(t).digest();
    const canonical = `POST\n/\n\ncontent-type:${req.headers['content-type']}\nhost:${req.headers.host}\n\ncontent-type;host\n${hash(req.raw)}`;
    const toSign = `TC3-HMAC-SHA256\n${req.headers['x-tc-timestamp']}\n${m[2]}/hunyuan/tc3_request\n${hash(canonical)}`;
    const expected = createHmac('sha256', mac(mac(mac('TC3hy-secret', m[2]), 'hunyuan'), 'tc3_request')).update(toSign).digest('hex');
    if (expected !== m[3]) return fail('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
    const usage = (out: number) => ({ PromptTokens: PROMPT_TOKENS, CompletionTokens: out, TotalTokens: PROMPT_TOKENS + out });
    if (!req.body.Stream) {
      return sendJson(res, { Response: { Id: 'hy-1', Created: 1700000000, Choices: [{ FinishReason: 'stop', Message: { Role: 'assistant', Content: TEXT } }], Usage: usage(WORDS.length), RequestId: 'r' } });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [i, w] of WORDS.entries()) {
      const last = i === WORDS.length - 1;
      res.write(`data: ${JSON.stringify({ Id: 'hy-2', Created: 1700000000, Choices: [{ Delta: { Role: 'assistant', Content: i ? ` ${w}` : w }, FinishReason: last ? 'stop' : '' }], Usage: usage(i + 1) })}\n\n`);
    }
    res.end();
  }

  private coze(req: Received, res: ServerResponse) {
    if (req.body.bot_id !== 'bot123') return sendJson(res, { code: 4200, msg: 'Requested resource bot_id=' + req.body.bot_id + ' does not exist' });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const ev = (event: string, data: unknown) => res.write(`event:${event}\ndata:${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    const chat = { id: 'chat-1', conversation_id: 'conv-1', bot_id: 'bot123' };
    const message = (content: string, type = 'answer') => ({ id: 'msg-1', conversation_id: 'conv-1', bot_id: 'bot123', chat_id: 'chat-1', role: 'assistant', type, content, content_type: 'text' });
    ev('conversation.chat.created', { ...chat, status: 'created' });
    ev('conversation.chat.in_progress', { ...chat, status: 'in_progress' });
    for (const [i, w] of WORDS.entries()) ev('conversation.message.delta', message(i ? ` ${w}` : w));
    ev('conversation.message.completed', message(TEXT));
    ev('conversation.message.completed', message('{"msg_type":"generate_answer_finish"}', 'verbose'));
    ev('conversation.chat.completed', { ...chat, status: 'completed', usage: { token_count: PROMPT_TOKENS + WORDS.length, output_count: WORDS.length, input_count: PROMPT_TOKENS } });
    ev('done', '"[DONE]"');
    res.end();
  }

  private stability(req: Received, res: ServerResponse) {
    const prompt = /name="prompt"\r\n\r\n([^\r]*)/.exec(String(req.body))?.[1];
    if (!String(req.headers['content-type']).startsWith('multipart/form-data') || !prompt) {
      return sendJson(res, { id: 'e1', name: 'bad_request', errors: ['prompt: cannot be empty'] }, 400);
    }
    if (req.headers.accept !== 'application/json') {
      res.end(Buffer.from('PNGBYTES'));
      return;
    }
    sendJson(res, { image: Buffer.from(`PNG:${prompt}`).toString('base64'), finish_reason: 'SUCCESS', seed: 42 });
  }

  private replicate(req: Received, res: ServerResponse) {
    if (req.headers.prefer !== 'wait') return sendJson(res, { id: 'p1', status: 'starting', output: null }, 201);
    const n = req.body.input?.num_outputs ?? 1;
    const output = Array.from({ length: n }, (_, i) => `https://replicate.delivery/fake/${i}.png`);
    sendJson(res, { id: 'p1', status: 'succeeded', input: req.body.input, output, error: null }, 201);
  }

  private dashscope(req: Received, res: ServerResponse, b: NativeBehaviour) {
    if (b.status) return sendJson(res, { code: 'InvalidApiKey', message: 'Invalid API-key provided.', request_id: 'r-err' }, b.status);
    if (req.path.endsWith('/text-embedding')) {
      const texts = req.body.input.texts as string[];
      return sendJson(res, { output: { embeddings: texts.map((_, i) => ({ text_index: i, embedding: [i, 1] })) }, usage: { total_tokens: 5 }, request_id: 'r-emb' });
    }
    const answer = (content: string, finish: string, out: number) => ({
      output: { choices: [{ message: { role: 'assistant', content }, finish_reason: finish }] },
      usage: { input_tokens: PROMPT_TOKENS, output_tokens: out, total_tokens: PROMPT_TOKENS + out },
      request_id: 'r-1',
    });
    if (req.headers['x-dashscope-sse'] !== 'enable') return sendJson(res, answer(TEXT, 'stop', WORDS.length));
    res.writeHead(200, { 'content-type': 'text/event-stream;charset=UTF-8' });
    const events = [...WORDS.map((w, i) => answer(i ? ` ${w}` : w, 'null', i + 1)), answer('', 'stop', WORDS.length)];
    for (const [i, e] of events.entries()) res.write(`id:${i + 1}\nevent:result\n:HTTP_STATUS/200\ndata:${JSON.stringify(e)}\n\n`);
    res.end();
  }
}
