import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { estimateChat } from '../../src/relay/tokenizer.js';
import { relayState } from '../../src/relay/state.js';
import { dashboardRate } from '../../src/console/dashboard/service.js';

/** The rate window is the calendar minute: waits for the next one when this one has under 5 s left. */
async function startOfRoomyMinute(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 55_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
}

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hello there' }] });

describe.each(testDialects())('failover, limits and billing safety on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    await f.setOption('RetryTimes', 2);
  });
  afterAll(async () => f?.close());

  it('fails over to a lower priority and freezes a channel that answered 429', async () => {
    await f.addChannel({ key: 'busy-key', models: 'fo-model', priority: 10 });
    await f.addChannel({ key: 'spare-key', models: 'fo-model', priority: 0 });
    f.fake.behave('busy-key', { status: 429, retryAfter: 60 });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const first = await f.openai(key).chat.completions.create(ask('fo-model'));
    expect(first.choices[0].message.content).toContain('fake upstream');
    expect(f.fake.forKey('busy-key')).toHaveLength(1);
    await f.openai(key).chat.completions.create(ask('fo-model'));
    expect(f.fake.forKey('busy-key')).toHaveLength(1); // frozen: not asked again
    expect(f.fake.forKey('spare-key')).toHaveLength(2);
  });

  it('fails over, free of charge, a stream that breaks before its first byte', async () => {
    await f.addChannel({ key: 'mute-key', models: 'mute-model', priority: 10 });
    await f.addChannel({ key: 'talk-key', models: 'mute-model', priority: 0 });
    await f.server.ctx.db.insertInto('prices').values({ model: 'mute-model', type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    f.fake.behave('mute-key', { cutBeforeFirstChunk: true });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const stream = await f.openai(key).chat.completions.create({ ...ask('mute-model'), stream: true, stream_options: { include_usage: true } });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the fake upstream');
    expect(f.fake.forKey('mute-key')).toHaveLength(1);
    expect(f.fake.forKey('talk-key')).toHaveLength(1);
    await f.flush();
    const logs = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).execute();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ quota: 15, content: '' });
    const user = await f.server.ctx.db.selectFrom('users').select(['quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ quota: 1_000_000 - 15, request_count: 1 });
  });

  it('does not retry a caller error and returns it as is', async () => {
    await f.addChannel({ key: 'strict-key', models: 'strict-model', priority: 5 });
    await f.addChannel({ key: 'strict-spare', models: 'strict-model', priority: 0 });
    f.fake.behave('strict-key', { status: 400, errorBody: { error: { message: 'context too long', type: 'invalid_request_error', code: 'context_length_exceeded' } } });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const err = await f.openai(key).chat.completions.create(ask('strict-model')).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.error.message).toContain('context too long');
    expect(f.fake.forKey('strict-spare')).toHaveLength(0);
  });

  it('auto-disables a channel whose key upstream rejects, and a passing test re-enables it', async () => {
    await f.setOption('AutomaticDisableChannelEnabled', true);
    await f.setOption('AutomaticEnableChannelEnabled', true);
    const bad = await f.addChannel({ key: 'revoked-key', models: 'ad-model', priority: 10 });
    await f.addChannel({ key: 'good-key', models: 'ad-model', priority: 0 });
    f.fake.behave('revoked-key', { status: 401, errorBody: { error: { message: 'Incorrect API key provided: sk-abcdefgh1234', type: 'invalid_request_error', code: 'invalid_api_key' } } });
    const { key } = await f.newUser({ quota: 1_000_000 });
    await f.openai(key).chat.completions.create(ask('ad-model'));
    await expect.poll(async () => (await f.root.get(`/api/channel/${bad}`)).body.data.status).toBe(3);
    expect((await f.root.get(`/api/channel/${bad}`)).body.data.disabled_reason).not.toContain('abcdefgh1234');
    f.fake.behave('revoked-key', {});
    const test = await f.root.get(`/api/channel/test/${bad}`);
    expect(test.body).toMatchObject({ success: true });
    expect(typeof test.body.time).toBe('number');
    expect((await f.root.get(`/api/channel/${bad}`)).body.data.status).toBe(1);
    await f.setOption('AutomaticDisableChannelEnabled', false);
  });

  it('never serves more calls than a token can pay for, under 20 concurrent requests', async () => {
    await f.setOption('PreConsumedQuota', 0);
    await f.addChannel({ key: 'race-key', models: 'test-model' });
    const body = { ...ask('test-model'), max_tokens: 10 };
    const hold = estimateChat(body.messages) + 10; // price 1:1, group ratio 1
    const { key, tokenId, userId } = await f.newUser({ quota: 1_000_000, token: { unlimited_quota: false, remain_quota: hold * 3 + Math.floor(hold / 2) } });
    // Upstream answers nobody until all 20 are either held there or refused, so every
    // admission races every other one, however slowly a loaded machine sends them.
    f.fake.behave('race-key', { hold: true });
    let refusedSoFar = 0;
    const calls = Array.from({ length: 20 }, () => {
      const call = f.openai(key, { maxRetries: 0 }).chat.completions.create(body);
      call.catch(() => (refusedSoFar += 1));
      return call;
    });
    await expect.poll(() => f.fake.holding + refusedSoFar, { timeout: 30_000 }).toBe(20);
    f.fake.release();
    const results = await Promise.allSettled(calls);
    const served = results.filter((r) => r.status === 'fulfilled').length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(3);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason.status).toBe(403);
    await f.flush();
    const token = await f.server.ctx.db.selectFrom('tokens').selectAll().where('id', '=', tokenId).executeTakeFirstOrThrow();
    expect(token.remain_quota).toBeGreaterThanOrEqual(0);
    const user = await f.server.ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user.quota).toBe(1_000_000 - served * 15);
    await f.setOption('PreConsumedQuota', 500);
  });

  it('limits requests per minute by the user\'s group, exactly', async () => {
    await f.root.post('/api/user_group/', { symbol: 'slow', name: 'slow lane', api_rate: 2 });
    const groups = (await f.root.get('/api/user_group/?Name=slow')).body.data.data;
    await f.addChannel({ key: 'rpm-key', models: 'rpm-model', group: 'slow' });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    await f.root.put('/api/user/', { id: userId, group: 'slow' });
    expect(groups[0].api_rate).toBe(2);
    await startOfRoomyMinute();
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await f.openai(key).chat.completions.create(ask('rpm-model')).then(() => 200, (e) => e.status));
    expect(results).toEqual([200, 200, 429]);
  });

  it('shows on the dashboard the requests made this minute, not what the limiter took ahead', async () => {
    await f.root.post('/api/user_group/', { symbol: 'wide', name: 'wide lane', api_rate: 600 });
    await f.addChannel({ key: 'rpm-wide-key', models: 'rpm-wide', group: 'wide' });
    const { key, userId } = await f.newUser({ quota: 10_000_000 });
    await f.root.put('/api/user/', { id: userId, group: 'wide' });
    await startOfRoomyMinute();
    for (let i = 0; i < 5; i++) await f.openai(key).chat.completions.create(ask('rpm-wide'));
    const user = await f.server.ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(await dashboardRate(f.server.ctx, user)).toMatchObject({ rpm: 5, maxRPM: 600 });
  });

  it('bills and logs a stream the client abandons midway', async () => {
    await f.addChannel({ key: 'slow-key', models: 'slow-model' });
    await f.server.ctx.db.insertInto('prices').values({ model: 'slow-model', input: 1, output: 1 }).execute();
    await relayState(f.server.ctx).prices.load();
    f.fake.behave('slow-key', { content: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '), chunkDelayMs: 20 });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const controller = new AbortController();
    const stream = await f.openai(key).chat.completions.create({ ...ask('slow-model'), stream: true }, { signal: controller.signal });
    let seen = 0;
    try {
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta?.content) seen++;
        if (seen === 3) controller.abort();
      }
    } catch {
      // the abort surfaces as an error on the client side
    }
    await expect.poll(async () => {
      await f.flush();
      return f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).executeTakeFirst();
    }, { timeout: 5000 }).toBeTruthy();
    const log = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log.content).toContain('client disconnected');
    // Upstream kept streaming and reported its usage: 10 prompt + 40 completion.
    expect(log.quota).toBe(50);
    expect(log.estimated).toBe(0);
  });

  it('marks a stream the upstream cuts off: error event to the client, delivered tokens billed', async () => {
    await f.addChannel({ key: 'cut-key', models: 'cut-model' });
    await f.server.ctx.db.insertInto('prices').values({ model: 'cut-model', input: 1, output: 1 }).execute();
    await relayState(f.server.ctx).prices.load();
    f.fake.behave('cut-key', { content: 'one two three four five six', cutAfterChunks: 3 });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const res = await fetch(`${f.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ask('cut-model'), stream: true }),
    });
    const text = await res.text();
    expect(text).toContain('stream_interrupted');
    expect(text).not.toContain('[DONE]');
    await f.flush();
    const log = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log.content).toContain('broke off');
    expect(log.estimated).toBe(1);
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeLessThan(6);
  });

  it('sends the last events at once even when upstream ends its response late after [DONE]', async () => {
    await f.addChannel({ key: 'late-end-key', models: 'late-end-model' });
    f.fake.behave('late-end-key', { content: 'alpha beta', endDelayMs: 1500 });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const started = Date.now();
    const res = await fetch(`${f.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ask('late-end-model'), stream: true, stream_options: { include_usage: true } }),
    });
    let text = '';
    let usageAt = 0;
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      if (!usageAt && /"usage":\{/.test(text)) usageAt = Date.now() - started;
    }
    const endedAt = Date.now() - started;
    // The usage chunk came in the same read as upstream's [DONE]: it is not held back until the late end.
    expect(usageAt).toBeGreaterThan(0);
    expect(usageAt).toBeLessThan(1000);
    expect(endedAt).toBeGreaterThanOrEqual(1400);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(text).toContain('alpha');
  });
});

describe.each(testDialects())('graceful restart on %s', (dialect) => {
  it('flushes queued counters and logs on shutdown', async () => {
    const f = await relayFixture(dialect);
    await f.addChannel({ key: 'restart-key', models: 'test-model' });
    const { key, userId } = await f.newUser({ quota: 100_000 });
    for (let i = 0; i < 3; i++) await f.openai(key).chat.completions.create(ask('test-model'));
    await f.server.close(); // BATCH_FLUSH_MS is a minute here: only the shutdown flush can have written these
    const again = await startTestServer(dialect, { reuse: f.server });
    try {
      const user = await again.ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      expect(user.request_count).toBe(3);
      expect(user.quota).toBe(100_000 - 3 * 15);
      const logs = await again.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).execute();
      expect(logs).toHaveLength(3);
    } finally {
      await again.destroy();
      await f.fake.close();
    }
  });
});
