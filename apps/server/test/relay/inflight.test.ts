import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hello there' }] });

describe('no head-of-line blocking between users', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture('sqlite');
    await f.setOption('UserMaxInflight', 0);
  });
  afterAll(async () => {
    f?.fake.release();
    f?.server.app.server.closeAllConnections();
    await f?.close();
  });

  it("serves another user at once while one user holds 300 requests open to the same upstream", async () => {
    await f.addChannel({ key: 'hol-busy', models: 'hol-a' });
    await f.addChannel({ key: 'hol-free', models: 'hol-b' });
    f.fake.behave('hol-busy', { hold: true });
    const a = await f.newUser({ quota: 100_000_000 });
    const b = await f.newUser({ quota: 1_000_000 });
    let finishedA = 0;
    const callsA = Array.from({ length: 300 }, () =>
      f.openai(a.key).chat.completions.create(ask('hol-a')).then(() => finishedA++),
    );
    // With 256 connections per origin the last 44 never reached upstream, and B queued behind them.
    await expect.poll(() => f.fake.holding, { timeout: 20_000 }).toBe(300);
    const answer = await f.openai(b.key).chat.completions.create(ask('hol-b'));
    expect(answer.choices[0].message.content).toBe('Hello from the fake upstream');
    expect(finishedA).toBe(0);
    expect(f.fake.holding).toBe(300);
    expect(relayState(f.server.ctx).inflight.of(a.userId)).toBe(300);
    f.fake.release();
    await Promise.all(callsA);
    expect(relayState(f.server.ctx).inflight.of(a.userId)).toBe(0);
    expect(relayState(f.server.ctx).inflight.of(b.userId)).toBe(0);
  });
});

describe.each(testDialects())('per-user in-flight limit on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    await f.setOption('UserMaxInflight', 3);
  });
  afterAll(async () => {
    f?.fake.release();
    f?.server.app.server.closeAllConnections();
    await f?.close();
  });

  const quotaOf = async (userId: number) =>
    Number((await f.server.ctx.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota);

  it('refuses a request over the limit with a 429 in the door\'s shape, before any hold or upstream call; counts return to zero', async () => {
    await f.addChannel({ key: 'lim-held', models: 'lim-model' });
    f.fake.behave('lim-held', { hold: true });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const other = await f.newUser({ quota: 1_000_000 });
    const inflight = relayState(f.server.ctx).inflight;
    const leaving = new AbortController();
    const held = [
      f.openai(key).chat.completions.create(ask('lim-model')),
      f.openai(key).chat.completions.create({ ...ask('lim-model'), stream: true }),
      f.openai(key).chat.completions.create(ask('lim-model'), { signal: leaving.signal }).catch((e) => e),
    ];
    await expect.poll(() => f.fake.forKey('lim-held').length).toBe(3);
    expect(inflight.of(userId)).toBe(3);
    const quotaWhileHeld = await quotaOf(userId);

    const err = await f.openai(key).chat.completions.create(ask('lim-model')).catch((e) => e);
    expect(err.status).toBe(429);
    expect(err.error).toMatchObject({ code: 'too_many_inflight' });
    expect(err.error.message).toContain('UserMaxInflight 3');
    const claude = await fetch(`${f.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'lim-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(claude.status).toBe(429);
    expect(await claude.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: expect.stringContaining('UserMaxInflight') } });
    expect(f.fake.forKey('lim-held')).toHaveLength(3); // no upstream call for the refused ones
    expect(await quotaOf(userId)).toBe(quotaWhileHeld); // the refused ones held nothing

    // Another user is not limited by this one.
    f.fake.behave('lim-free', {});
    await f.addChannel({ key: 'lim-free', models: 'lim-free-model' });
    await f.openai(other.key).chat.completions.create(ask('lim-free-model'));

    leaving.abort(); // a client that leaves frees its place at once
    await expect.poll(() => inflight.of(userId)).toBe(2);
    f.fake.release();
    const [json, stream] = await Promise.all(held.slice(0, 2));
    for await (const _chunk of stream as AsyncIterable<unknown>) void _chunk;
    expect(json).toMatchObject({ object: 'chat.completion' });
    await expect.poll(() => inflight.of(userId)).toBe(0);
    expect(inflight.of(other.userId)).toBe(0);
  });

  it('frees the place of a stream the client abandons midway', async () => {
    await f.addChannel({ key: 'lim-slow', models: 'lim-slow-model' });
    f.fake.behave('lim-slow', { content: Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '), chunkDelayMs: 10 });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const controller = new AbortController();
    const stream = await f.openai(key).chat.completions.create({ ...ask('lim-slow-model'), stream: true }, { signal: controller.signal });
    let seen = 0;
    await (async () => {
      for await (const chunk of stream) if (chunk.choices[0]?.delta?.content && ++seen === 2) controller.abort();
    })().catch(() => undefined);
    await expect.poll(() => relayState(f.server.ctx).inflight.of(userId), { timeout: 5000 }).toBe(0);
  });
});
