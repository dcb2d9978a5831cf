import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from '../doors/fixture.js';

const DEEP = '['.repeat(20_000) + ']'.repeat(20_000);
const TOO_BIG = 2 ** 53 + 2;

describe.each(testDialects())('bad input is a 4xx at every door on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  let userId: number;
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${f.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-goog-api-key': key, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.setOption('RetryTimes', 3);
    // Two OpenAI channels per model: a request wrongly treated as a channel failure would reach both.
    await f.addChannel({ type: 1, key: 'first-key', models: 'bad-gpt', priority: 10 });
    await f.addChannel({ type: 1, key: 'second-key', models: 'bad-gpt', priority: 0 });
    await f.addChannel({ type: 14, key: 'claude-key', base_url: f.claude.url, models: 'bad-claude' });
    await f.unitPrice('bad-gpt');
    ({ key, userId } = await f.newUser({ quota: 1_000_000 }));
  });
  afterAll(async () => f?.close());

  const untouched = () => {
    expect(f.fake.forKey('first-key')).toHaveLength(0);
    expect(f.fake.forKey('second-key')).toHaveLength(0);
    expect(f.claude.forKey('claude-key')).toHaveLength(0);
  };

  it('answers malformed /v1/messages bodies with a 400 in Anthropic shape naming the field, never tried on a channel', async () => {
    const client = f.anthropic(key);
    const cases: Array<[unknown, string]> = [
      [[{ role: 'user', content: 42 }], 'messages.0.content'],
      [['hello'], 'messages.0'],
      [[{ role: 'user', content: [null] }], 'messages.0.content'],
      [[{ role: 'user', content: [[{ type: 'text', text: 'x' }]] }], 'messages.0.content'],
      [[{ role: 'user', content: [{ type: 'text', text: null }] }], 'messages.0.content.0.text'],
      [[{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 7 }] }], 'messages.0.content.0.content'],
      [[{ role: 'user', content: [{ type: 'image', source: null }] }], 'messages.0.content.0.source'],
    ];
    for (const [messages, field] of cases) {
      const err = await client.messages.create({ model: 'bad-gpt', max_tokens: 10, messages: messages as never }).catch((e) => e);
      expect(err.status, field).toBe(400);
      expect(err.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(err.error.error.message, field).toContain(`${field}:`);
      expect(err.error.error.message).not.toMatch(/TypeError|Cannot read|is not/);
    }
    untouched();
  });

  it('answers malformed generateContent bodies with a 400 in Google shape naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ contents: [{ role: 'user', parts: null }] }, 'contents.0.parts'],
      [{ contents: [{ role: 'user', parts: [null] }] }, 'contents.0.parts.0'],
      [{ contents: 'hello' }, 'contents'],
      [{ contents: [{ parts: [{ text: 5 }] }] }, 'contents.0.parts.0.text'],
      [{ contents: [{ parts: [{ inlineData: { data: 'AAAA' } }] }] }, 'contents.0.parts.0.inlineData.mimeType'],
      [{ contents: [{ parts: [{ text: 'x' }] }], tools: null }, 'tools'],
    ];
    for (const method of ['generateContent', 'streamGenerateContent?alt=sse']) {
      for (const [body, field] of cases) {
        const res = await post(`/v1beta/models/bad-gpt:${method}`, body);
        const json = (await res.json()) as { error: { code: number; status: string; message: string } };
        expect(res.status, `${method} ${field}`).toBe(400);
        expect(json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
        expect(json.error.message).toContain(`${field}:`);
      }
    }
    untouched();
  });

  it('answers malformed OpenAI door bodies with a 400 naming the field, including shapes only a conversion reads', async () => {
    const openai = f.openai(key);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/v1/chat/completions', { model: 'bad-gpt', messages: [{ role: 'user', content: 42 }] }, 'messages.0.content'],
      ['/v1/chat/completions', { model: 'bad-gpt', messages: 'hi' }, 'messages'],
      ['/v1/chat/completions', { model: 'bad-claude', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function' }] }, 'tools.0.function'],
      ['/v1/chat/completions', { model: 'bad-claude', messages: [{ role: 'user', content: [{ type: 'text', text: null }] }] }, 'messages.0.content.0.text'],
      ['/v1/chat/completions', { model: 'bad-gpt', messages: [{ role: 'user', content: 'hi' }], max_tokens: -5 }, 'max_tokens'],
      ['/v1/responses', { model: 'bad-claude', input: [{ type: 'function_call_output', call_id: 'c' }] }, 'input.0.output'],
      ['/v1/responses', { model: 'bad-gpt', input: 42 }, 'input'],
      ['/v1/embeddings', { model: 'bad-gpt', input: null }, 'input'],
      ['/v1/completions', { model: 'bad-gpt', prompt: 7 }, 'prompt'],
      ['/v1/images/generations', { model: 'bad-gpt', prompt: 'cat', n: 1e9 }, 'n'],
      ['/v1/audio/speech', { model: 'bad-gpt', input: { a: 1 }, voice: 'alloy' }, 'input'],
      ['/v1/rerank', { model: 'bad-gpt', query: 'q', documents: 'abc' }, 'documents'],
      ['/v1/moderations', { model: 'bad-gpt', input: 5 }, 'input'],
    ];
    for (const [path, body, field] of cases) {
      const err = (await openai.post(path.replace('/v1', ''), { body }).catch((e) => e)) as { status: number; error: { message: string } };
      expect(err.status, `${path} ${field}`).toBe(400);
      expect(err.error.message, `${path} ${field}`).toContain(`${field}:`);
    }
    untouched();
  });

  it('refuses JSON nested deeper than 128 levels with a 400 on /v1, /v1/messages, /v1beta and /api, and accepts 100 levels', async () => {
    const deepField = (text: string) => `{"model":"bad-gpt","max_tokens":5,"messages":[{"role":"user","content":"hi"}],"extra":${text}}`;
    for (const url of ['/v1/chat/completions', '/v1/messages', '/v1beta/models/bad-gpt:generateContent', '/api/user/login', '/api/token/']) {
      for (const body of [DEEP, deepField(DEEP)]) {
        const res = await post(url, body);
        expect(res.status, url).toBe(400);
        expect(await res.text()).toContain('nested deeper than 128');
      }
    }
    const fine = await post('/v1/chat/completions', deepField('['.repeat(100) + ']'.repeat(100)));
    expect(fine.status).toBe(200);
    expect(f.fake.forKey('first-key')).toHaveLength(1);
    f.fake.received.length = 0;
  });

  it('refuses an invalid CIDR at save time, and a stored unreadable entry never fails a call with a 500', async () => {
    const { client, tokenId } = await f.newUser({ quota: 1_000_000 });
    for (const bad of ['1.2.3.4/999', '300.1.1.1', 'garbage', '1.2.3.4/', '::1/129']) {
      const res = await client.post('/api/token/', { name: 'ip', setting: { limits: { limits_ip_setting: { enabled: true, whitelist: [bad] } } } });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toContain('whitelist');
      const upd = await client.put('/api/token/', { id: tokenId, setting: { limits: { limits_ip_setting: { enabled: true, whitelist: [bad] } } } });
      expect(upd.status, bad).toBe(400);
    }
    expect((await client.post('/api/token/', { name: 'ip', setting: { limits: { limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/8', '::1/128'] } } } })).status).toBe(200);

    // Rows saved before the check existed: the bad entries are skipped, the good one still matches.
    const stored = (whitelist: string[]) => JSON.stringify({ heartbeat: { enabled: false, timeout_seconds: 0 }, limits: { limit_model_setting: { enabled: false, models: [] }, limits_ip_setting: { enabled: true, whitelist } } });
    const legacy = await f.newUser({ quota: 1_000_000 });
    await f.server.ctx.db.updateTable('tokens').set({ setting: stored(['1.2.3.4/999', '300.1.1.1', 'x/y/z', '127.0.0.1/32']) }).where('id', '=', legacy.tokenId).execute();
    const ok = await f.openai(legacy.key).chat.completions.create({ model: 'bad-gpt', messages: [{ role: 'user', content: 'hi' }] });
    expect(ok.choices[0].message.content).toContain('fake upstream');
    const locked = await f.newUser({ quota: 1_000_000 });
    await f.server.ctx.db.updateTable('tokens').set({ setting: stored(['1.2.3.4/999', '127.0.0.1/abc']) }).where('id', '=', locked.tokenId).execute();
    const err = await f.openai(locked.key).chat.completions.create({ model: 'bad-gpt', messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    expect(err.status).toBe(403);
    f.fake.received.length = 0;
  });

  it('refuses channel base URLs that are not http(s) URLs, on create and update', async () => {
    for (const bad of ['ftp://example.com', 'example.com', 'javascript:alert(1)', 'http://']) {
      const res = await f.root.post('/api/channel/', { type: 1, name: 'u', key: 'k', base_url: bad, models: 'm', group: 'default' });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toContain('base_url');
    }
    const id = await f.addChannel({ type: 1, key: 'url-key', models: 'url-model' });
    const upd = await f.root.put('/api/channel/', { id, base_url: 'file:///etc/passwd' });
    expect(upd.status).toBe(400);
    expect((await f.root.put('/api/channel/', { id, base_url: 'https://api.example.com/v1' })).status).toBe(200);
  });

  it('refuses quotas and amounts above 2^53 everywhere one is accepted', async () => {
    const { client, tokenId } = await f.newUser();
    const checks = [
      await client.post('/api/token/', { name: 'big', remain_quota: TOO_BIG }),
      await client.put('/api/token/', { id: tokenId, remain_quota: TOO_BIG }),
      await f.root.post(`/api/user/quota/${userId}`, { quota: TOO_BIG }),
      await f.root.post('/api/redemption/', { name: 'big', quota: TOO_BIG, count: 1 }),
      await client.post('/api/user/order', { uuid: 'x', amount: TOO_BIG }),
      await f.root.put('/api/option/', { key: 'QuotaForNewUser', value: String(TOO_BIG) }),
      await f.root.put('/api/option/', { key: 'QuotaForInviter', value: '99999999999999999999' }),
    ];
    for (const res of checks) expect(res.status, JSON.stringify(res.body)).toBe(400);
  });

  it('refuses negative and absurd relay options through PUT /api/option/', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['PreConsumedQuota', '-500', /at least 0/],
      ['RetryTimes', '-1', /at least 0/],
      ['RetryTimes', '100000', /at most 10/],
      ['RetryCooldownSeconds', '-5', /at least 0/],
      ['RetryTimeOut', '999999999', /at most/],
      ['StreamIdleTimeoutSeconds', '-1', /at least 0/],
      ['QuotaForNewUser', '-10', /at least 0/],
    ];
    for (const [key, value, message] of cases) {
      const res = await f.root.put('/api/option/', { key, value });
      expect(res.status, `${key}=${value}`).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect((await f.root.put('/api/option/', { key: 'PreConsumedQuota', value: '1000' })).status).toBe(200);
  });
});
