import { describe, expect, it } from 'vitest';
import { adapterFor } from '../index.js';
import type { ChannelTarget, Frame } from '../types.js';

const legacy: ChannelTarget = { id: 1, type: 15, key: 'client-id|client-secret', baseUrl: 'https://aip.baidubce.com', other: '', headers: {} };
const chat = { model: 'ERNIE-4.0-8K', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }], temperature: 0, max_tokens: 1 };

describe('Baidu adapter', () => {
  const baidu = adapterFor(15)!;

  it('a bearer key goes to Qianfan v2 in OpenAI format', () => {
    const req = baidu.buildRequest('chat/completions', chat, { ...legacy, key: 'bce-v3/ALTAK-x/y' }, { stream: false, raw: false, model: 'ERNIE-4.0-8K' });
    expect(req.url).toBe('https://qianfan.baidubce.com/v2/chat/completions');
    expect(req.headers.authorization).toBe('Bearer bce-v3/ALTAK-x/y');
    expect(req.body).toBe(chat);
  });

  it('a clientId|clientSecret key goes to the ERNIE endpoint of the model, with system text apart', () => {
    const req = baidu.buildRequest('chat/completions', chat, legacy, { stream: true, raw: false, model: 'ERNIE-4.0-8K' });
    expect(req.url).toBe('https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({ messages: [{ role: 'user', content: 'hi' }], system: 'be brief', stream: true, temperature: 0.01, max_output_tokens: 2 });
    expect(baidu.buildRequest('chat/completions', chat, legacy, { stream: false, raw: false, model: 'ERNIE-Lite-8K' }).url).toMatch(/\/chat\/ernie-lite-8k$/);
    expect(baidu.buildRequest('embeddings', { model: 'Embedding-V1', input: 'x' }, legacy, { stream: false, raw: false, model: 'Embedding-V1' }).body).toEqual({ input: ['x'] });
  });

  it('fetches the access token once per key and adds it to the URL', async () => {
    const posts: string[] = [];
    const post = async (url: string) => {
      posts.push(url);
      return { status: 200, body: JSON.stringify({ access_token: 'tok-1', expires_in: 2592000 }) };
    };
    const built = baidu.buildRequest('chat/completions', chat, { ...legacy, key: 'cid|csec' }, { stream: false, raw: false, model: 'ERNIE-4.0-8K' });
    const first = await baidu.authorize!(built, { ...legacy, key: 'cid|csec' }, post);
    const second = await baidu.authorize!(built, { ...legacy, key: 'cid|csec' }, post);
    expect(new URL(first.url).searchParams.get('access_token')).toBe('tok-1');
    expect(second.url).toBe(first.url);
    expect(posts).toHaveLength(1);
    expect(new URL(posts[0]).pathname).toBe('/oauth/2.0/token');
    expect(new URL(posts[0]).searchParams.get('client_id')).toBe('cid');
    const refused = async () => ({ status: 401, body: JSON.stringify({ error: 'invalid_client', error_description: 'unknown client id' }) });
    await expect(baidu.authorize!(built, { ...legacy, key: 'bad|key' }, refused)).rejects.toThrow('unknown client id');
    const untouched = { url: 'https://qianfan.baidubce.com/v2/chat/completions', headers: {}, body: {} };
    expect(await baidu.authorize!(untouched, { ...legacy, key: 'bearer' }, post)).toBe(untouched);
  });

  it('converts ERNIE answers, raises ERNIE errors sent with 200, leaves Qianfan v2 answers alone', () => {
    const answer = baidu.transformResponse!('chat/completions', { id: 'as-1', created: 5, result: 'Hi', is_truncated: false, usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }, chat) as any;
    expect(answer).toMatchObject({ id: 'as-1', model: 'ERNIE-4.0-8K', choices: [{ message: { content: 'Hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1 } });
    expect(() => baidu.transformResponse!('chat/completions', { error_code: 110, error_msg: 'Access token invalid or no longer valid' }, chat)).toThrow(/Access token invalid/);
    const v2 = { id: 'x', object: 'chat.completion', choices: [] };
    expect(baidu.transformResponse!('chat/completions', v2, chat)).toBe(v2);
  });

  it('streams ERNIE events and Qianfan v2 chunks', () => {
    const data = (frames: Frame[]) => frames.map((f) => (typeof f === 'string' ? f : f.data));
    const m = baidu.createStreamMapper({ forwardUsage: false });
    const out = data([
      ...m.onEvent(JSON.stringify({ id: 'as', sentence_id: 0, is_end: false, result: 'Hel', usage: { prompt_tokens: 3, completion_tokens: 1 } })),
      ...m.onEvent(JSON.stringify({ id: 'as', sentence_id: 1, is_end: true, result: 'lo', usage: { prompt_tokens: 3, completion_tokens: 2 } })),
      ...m.finish(),
    ]);
    expect(out.slice(0, 2).map((d) => JSON.parse(d).choices[0].delta.content)).toEqual(['Hel', 'lo']);
    expect(m.ended!()).toBe(true);
    expect(m.usage()).toMatchObject({ promptTokens: 3, completionTokens: 2 });
    const v2 = baidu.createStreamMapper({ forwardUsage: false });
    const chunk = JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] });
    expect(data(v2.onEvent(chunk))).toEqual([chunk]);
  });
});
