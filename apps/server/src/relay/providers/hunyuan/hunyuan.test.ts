import { afterEach, describe, expect, it, vi } from 'vitest';
import { adapterFor } from '../index.js';
import type { ChannelTarget, Frame } from '../types.js';
import { tc3Headers } from './sign.js';

const channel: ChannelTarget = { id: 1, type: 40, key: 'AKIDtest|secretkey123', baseUrl: 'https://hunyuan.tencentcloudapi.com', other: '', headers: {} };
const PAYLOAD = '{"Model":"hunyuan-lite","Messages":[{"Role":"user","Content":"hi"}],"Stream":false}';
// Computed independently (Python hmac/hashlib) from Tencent's published TC3 algorithm.
const GOLDEN = 'eb6ba996129df5803d309b092e9df55a1ceb85e98228c867f87c537a52db1830';

describe('Tencent Hunyuan adapter', () => {
  afterEach(() => vi.useRealTimers());
  const hunyuan = adapterFor(40)!;

  it('signs with TC3-HMAC-SHA256 (golden vector)', () => {
    const headers = tc3Headers({ secretId: 'AKIDtest', secretKey: 'secretkey123', service: 'hunyuan', host: 'hunyuan.tencentcloudapi.com', action: 'ChatCompletions', version: '2023-09-01', payload: Buffer.from(PAYLOAD), timestamp: 1_700_000_000 });
    expect(headers.authorization).toBe(`TC3-HMAC-SHA256 Credential=AKIDtest/2023-11-14/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=${GOLDEN}`);
    expect(headers).toMatchObject({ 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01', 'x-tc-timestamp': '1700000000', 'content-type': 'application/json' });
  });

  it('builds the exact signed bytes at the current time', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_700_000_000_000);
    const req = hunyuan.buildRequest('chat/completions', { model: 'hunyuan-lite', messages: [{ role: 'user', content: 'hi' }] }, channel, { stream: false, raw: false, model: 'hunyuan-lite' });
    expect(req.url).toBe('https://hunyuan.tencentcloudapi.com/');
    expect(req.raw).toBe(true);
    expect((req.body as Buffer).toString()).toBe(PAYLOAD);
    expect(req.headers.authorization).toContain(`Signature=${GOLDEN}`);
    expect(() => hunyuan.buildRequest('chat/completions', { model: 'x', messages: [] }, { ...channel, key: 'only-id' }, { stream: false, raw: false, model: 'x' })).toThrow(/SecretId\|SecretKey/);
  });

  it('converts answers and raises errors sent with HTTP 200', () => {
    const answer = hunyuan.transformResponse!('chat/completions', {
      Response: { Id: 'h1', Created: 1700000000, Usage: { PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5 }, Choices: [{ FinishReason: 'stop', Message: { Role: 'assistant', Content: 'Hi!' } }], RequestId: 'r' },
    }, { model: 'hunyuan-lite' }) as any;
    expect(answer).toMatchObject({ id: 'h1', model: 'hunyuan-lite', choices: [{ message: { content: 'Hi!' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2 } });
    const fail = () => hunyuan.transformResponse!('chat/completions', { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'The provided credentials could not be validated.' }, RequestId: 'r' } }, {});
    expect(fail).toThrow('credentials could not be validated');
    try {
      fail();
    } catch (e) {
      expect(e).toMatchObject({ status: 401, code: 'AuthFailure.SignatureFailure' });
    }
    expect(hunyuan.mapError(200, JSON.stringify({ Response: { Error: { Code: 'LimitExceeded', Message: 'slow' } } }))).toMatchObject({ status: 429, retryable: true });
  });

  it('streams Delta events into OpenAI chunks', () => {
    const mapper = hunyuan.createStreamMapper({ forwardUsage: true });
    const ev = (content: string, finish: string) => JSON.stringify({ Id: 'h2', Created: 1, Choices: [{ Delta: { Role: 'assistant', Content: content }, FinishReason: finish }], Usage: { PromptTokens: 3, CompletionTokens: 2 } });
    const frames: Frame[] = [...mapper.onEvent(ev('Hi', '')), ...mapper.onEvent(ev('!', '')), ...mapper.onEvent(ev('', 'stop')), ...mapper.finish()];
    const data = frames.map((f) => (typeof f === 'string' ? f : f.data));
    expect(data.slice(0, 2).map((d) => JSON.parse(d).choices[0].delta.content)).toEqual(['Hi', '!']);
    expect(JSON.parse(data[2]).choices[0].finish_reason).toBe('stop');
    expect(JSON.parse(data[3]).usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 2 });
    expect(data.at(-1)).toBe('[DONE]');
    expect(mapper.ended!()).toBe(true);
  });
});
