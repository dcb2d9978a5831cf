import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hello there' }] });
// Mid-minute and mid-day (UTC), so each window's edge is exactly 30 s or 12 h away.
const T = Date.UTC(2026, 5, 10, 12, 0, 30);
const status = (p: Promise<unknown>) => p.then(() => 200, (e: { status?: number }) => e.status);
const limited = (rules: Record<string, number>) => ({ setting: { limits: { request_limits: rules } } });

describe.each(testDialects())('token, user and per-model request limits on %s', (dialect) => {
  let f: RelayFixture;
  let clock = T;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    relayState(f.server.ctx).limits.now = () => clock;
    await f.addChannel({ key: 'lim', models: 'test-model,cap-model,held-model' });
  });
  afterAll(async () => {
    f?.fake.release();
    await f?.close();
  });

  it('saves the limits in the token dialog\'s setting and rejects bad ones with a 400', async () => {
    const { client } = await f.newUser({ token: limited({ rpm: 7, daily_quota: 5000 }) });
    const token = (await client.get('/api/token/')).body.data.data[0];
    expect(token.setting.limits.request_limits).toEqual({ rpm: 7, tpm: 0, max_inflight: 0, daily_quota: 5000, monthly_quota: 0 });
    const bad = await client.post('/api/token/', { name: 'x', ...limited({ rpm: -1 }) });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('request_limits.rpm');
  });

  it('refuses after the token RPM with a 429 in OpenAI shape, Retry-After and the limit named; admits in the next minute', async () => {
    clock = T;
    const { key } = await f.newUser({ quota: 10_000_000, token: limited({ rpm: 2 }) });
    const sdk = f.openai(key);
    await sdk.chat.completions.create(ask('test-model'));
    await sdk.chat.completions.create(ask('test-model'));
    const err = await sdk.chat.completions.create(ask('test-model')).catch((e) => e);
    expect(err.status).toBe(429);
    expect(err.headers.get('retry-after')).toBe('30');
    expect(err.error).toMatchObject({ code: 'rpm_limit_exceeded', type: 'one_hub_error' });
    expect(err.error.message).toContain('token limit reached: 2 requests per minute (RPM)');
    expect(await status(sdk.responses.create({ model: 'test-model', input: 'hi' }))).toBe(429); // the Responses door too
    // The Gemini door refuses in Google's shape, with the same header.
    const gemini = await fetch(`${f.url}/v1beta/models/test-model:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key.slice(3), 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(gemini.status).toBe(429);
    expect(gemini.headers.get('retry-after')).toBe('30');
    expect(await gemini.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: expect.stringContaining('(RPM)') } });
    const calls = f.fake.forKey('lim').length;
    clock += 30_000;
    await sdk.chat.completions.create(ask('test-model'));
    expect(f.fake.forKey('lim').length).toBe(calls + 1);
  });

  it('refuses on the Messages door once settled tokens reach the TPM, in Anthropic shape; admits after the minute', async () => {
    clock = T + 120_000;
    f.fake.behave('lim', { usage: { prompt: 40, completion: 30 } });
    const { key } = await f.newUser({ quota: 10_000_000, token: limited({ tpm: 100 }) });
    const claude = new Anthropic({ apiKey: key, baseURL: f.url, maxRetries: 0 });
    const send = () => claude.messages.create({ model: 'test-model', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    await send();
    await expect.poll(() => status(send())).toBe(429); // the second settles 140 tokens; the third is refused
    const err = await send().catch((e) => e);
    expect(err.headers.get('retry-after')).toBe('30');
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: expect.stringMatching(/100 tokens per minute \(TPM\), \d+ used or held/) } });
    clock += 30_000;
    expect(await status(send())).toBe(200);
    f.fake.behave('lim', {});
  });

  it('holds a user\'s max in flight (set by an admin), and the refusal makes no upstream call', async () => {
    clock = T + 240_000;
    const { key, userId } = await f.newUser({ quota: 10_000_000 });
    expect((await f.root.put(`/api/limits/user/${userId}`, { max_inflight: 1 })).body.success).toBe(true);
    expect((await f.root.get(`/api/limits/user/${userId}`)).body.data).toMatchObject({ max_inflight: 1 });
    f.fake.behave('lim', { hold: true });
    const held = f.openai(key).chat.completions.create(ask('held-model'));
    await expect.poll(() => f.fake.holding).toBe(1);
    const err = await f.openai(key).chat.completions.create(ask('held-model')).catch((e) => e);
    expect(err.status).toBe(429);
    expect(err.headers.get('retry-after')).toBe('1');
    expect(err.error.message).toContain('user limit reached: 1 concurrent requests');
    expect(f.fake.holding).toBe(1);
    f.fake.release();
    await held;
    f.fake.behave('lim', {});
    expect(await status(f.openai(key).chat.completions.create(ask('held-model')))).toBe(200);
  });

  it('shows on the dashboard the user\'s real tokens this minute against their TPM limit', async () => {
    clock = T + 300_000;
    f.fake.behave('lim', { usage: { prompt: 40, completion: 30 } });
    const { key, userId, client } = await f.newUser({ quota: 10_000_000 });
    const rate = async () => (await client.get('/api/user/dashboard/rate')).body.data;
    expect(await rate()).toMatchObject({ tpm: 0, maxTPM: 0, usageTpmRate: 0 });
    expect((await f.root.put(`/api/limits/user/${userId}`, { tpm: 1000 })).body.success).toBe(true);
    await f.openai(key).chat.completions.create(ask('test-model'));
    await expect.poll(rate).toMatchObject({ tpm: 70, maxTPM: 1000, usageTpmRate: 7 });
    clock += 60_000; // the next UTC minute starts empty
    expect(await rate()).toMatchObject({ tpm: 0, maxTPM: 1000 });
    f.fake.behave('lim', {});
  });

  it('refuses a model of the group after its daily spending cap until the next UTC day; other models are not capped', async () => {
    clock = T;
    const group = await f.server.ctx.db.selectFrom('user_groups').select('id').where('symbol', '=', 'default').executeTakeFirstOrThrow();
    const saved = await f.root.put(`/api/limits/group/${group.id}`, { 'cap-model': { daily_quota: 1 } });
    expect(saved.body.success).toBe(true);
    expect((await f.root.put(`/api/limits/group/${group.id}`, { 'cap-model': { daily_quota: 'lots' } })).status).toBe(400);
    const { key } = await f.newUser({ quota: 10_000_000 });
    const sdk = f.openai(key);
    await sdk.chat.completions.create(ask('cap-model'));
    await expect.poll(() => status(sdk.chat.completions.create(ask('cap-model')))).toBe(429);
    const err = await sdk.chat.completions.create(ask('cap-model')).catch((e) => e);
    expect(err.headers.get('retry-after')).toBe(String(12 * 3600 - 30));
    expect(err.error.message).toContain('model cap-model in group default limit reached: daily spending cap 1');
    expect(await status(sdk.chat.completions.create(ask('test-model')))).toBe(200);
    clock += 12 * 3600_000;
    expect(await status(sdk.chat.completions.create(ask('cap-model')))).toBe(200);
    await f.root.put(`/api/limits/group/${group.id}`, {});
  });
});

describe.skipIf(!redisAvailable())('request limits across two nodes sharing Redis', () => {
  let a: RelayFixture;
  let b: TestServer;
  let bUrl: string;
  beforeAll(async () => {
    a = await relayFixture('sqlite', { REDIS_CONN_STRING: process.env.TEST_REDIS_CONN_STRING!, REDIS_KEY_PREFIX: `limits:${Date.now()}:` });
    b = await startTestServer('sqlite', { reuse: a.server });
    bUrl = await b.listen();
    for (const s of [a.server, b]) relayState(s.ctx).limits.now = () => T;
    await a.addChannel({ key: 'two', models: 'test-model' });
    await relayState(b.ctx).selector.reload();
  });
  afterAll(async () => {
    a?.fake.release();
    await b?.close();
    await a?.close();
  });

  it('admits the token RPM once in total, not once per node, and holds max in flight across nodes', async () => {
    const { key } = await a.newUser({ quota: 10_000_000, token: limited({ rpm: 3, max_inflight: 1 }) });
    const onB = new OpenAI({ apiKey: key, baseURL: `${bUrl}/v1`, maxRetries: 0 });
    const results: Array<number | undefined> = [];
    for (let i = 0; i < 6; i++) results.push(await status((i % 2 ? onB : a.openai(key)).chat.completions.create(ask('test-model'))));
    expect(results.filter((s) => s === 200)).toHaveLength(3);
    expect(results.filter((s) => s === 429)).toHaveLength(3);

    for (const s of [a.server, b]) relayState(s.ctx).limits.now = () => T + 60_000;
    a.fake.behave('two', { hold: true });
    const held = a.openai(key).chat.completions.create(ask('test-model'));
    await expect.poll(() => a.fake.holding).toBe(1);
    const err = await onB.chat.completions.create(ask('test-model')).catch((e) => e);
    expect(err.status).toBe(429);
    expect(err.error.message).toContain('token limit reached: 1 concurrent requests');
    a.fake.release();
    await held;
    a.fake.behave('two', {});
    await expect.poll(() => status(onB.chat.completions.create(ask('test-model')))).toBe(200);
  });

  it('20 concurrent requests split over both nodes against a daily cap: admissions hold their worst case, so only what fits gets through', async () => {
    for (const s of [a.server, b]) relayState(s.ctx).limits.now = () => T + 3 * 86_400_000;
    // Each holds about 505 (a short prompt + max_tokens 500 at 1 quota a token) and settles at 70.
    const { key, userId } = await a.newUser({ quota: 10_000_000, token: limited({ daily_quota: 1200 }) });
    const onB = new OpenAI({ apiKey: key, baseURL: `${bUrl}/v1`, maxRetries: 0 });
    a.fake.behave('two', { hold: true, usage: { prompt: 40, completion: 30 } });
    const calls = a.fake.forKey('two').length;
    let answered = 0;
    const sent = Array.from({ length: 20 }, (_v, i) =>
      status((i % 2 ? onB : a.openai(key)).chat.completions.create({ ...ask('test-model'), max_tokens: 500 })).finally(() => answered++),
    );
    // 0, ~505 and ~1010 held before them are below 1200: three reach upstream, the other seventeen are refused at once.
    await expect.poll(() => answered, { timeout: 10_000 }).toBe(17);
    expect(a.fake.holding).toBe(3);
    a.fake.release();
    const results = await Promise.all(sent);
    a.fake.behave('two', {});
    expect(results.filter((r) => r === 200)).toHaveLength(3);
    expect(results.filter((r) => r === 429)).toHaveLength(17);
    expect(a.fake.forKey('two').length - calls).toBe(3);
    await a.flush();
    await relayState(b.ctx).recorder.flush();
    const spent = await a.server.ctx.db.selectFrom('logs').select('quota').where('user_id', '=', userId).where('type', '=', 2).execute();
    expect(spent.reduce((n, r) => n + r.quota, 0)).toBe(210);
    // Settled at 70 each: 210 spent, so the next request fits again.
    expect(await status(onB.chat.completions.create(ask('test-model')))).toBe(200);
  });
});
