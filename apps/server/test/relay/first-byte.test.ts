import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hello there' }] });

describe.each(testDialects())('first-byte timeout and clients that leave first on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    await f.setOption('RetryTimes', 1);
    await f.setOption('FirstByteTimeoutSeconds', 1);
  });
  afterAll(async () => {
    // An aborted SDK call can leave the client's pool with a fresh socket that never sends a request,
    // which Fastify's close would wait on for Node's 60 s header timeout.
    f?.server.app.server.closeAllConnections();
    await f?.close();
  });

  const priced = async (model: string) => {
    await f.server.ctx.db.insertInto('prices').values({ model, type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await relayState(f.server.ctx).prices.load();
  };
  const consumeLogs = (userId: number) =>
    f.server.ctx.db.selectFrom('logs').select(['channel_id', 'quota', 'content', 'is_stream']).where('user_id', '=', userId).where('type', '=', 2).execute();
  const quotaOf = async (userId: number) =>
    Number((await f.server.ctx.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota);

  it('fails over from a channel that never answers after the timeout, not after 300 s, and bills only the answer', async () => {
    await priced('fb-json');
    await f.addChannel({ key: 'fb-silent', models: 'fb-json', priority: 10 });
    const healthy = await f.addChannel({ key: 'fb-healthy', models: 'fb-json', priority: 0 });
    f.fake.behave('fb-silent', { silent: true });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const started = Date.now();
    const answer = await f.openai(key).chat.completions.create(ask('fb-json'));
    const waited = Date.now() - started;
    expect(answer.choices[0].message.content).toBe('Hello from the fake upstream');
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(10_000);
    expect(f.fake.forKey('fb-silent')).toHaveLength(1);
    await f.flush();
    expect(await consumeLogs(userId)).toEqual([{ channel_id: healthy, quota: 15, content: '', is_stream: 0 }]);
    expect(await quotaOf(userId)).toBe(1_000_000 - 15);
  });

  it('fails over a stream whose upstream sends its headers and then nothing', async () => {
    await priced('fb-stream');
    await f.addChannel({ key: 'fb-mute-stream', models: 'fb-stream', priority: 10 });
    const healthy = await f.addChannel({ key: 'fb-talk-stream', models: 'fb-stream', priority: 0 });
    f.fake.behave('fb-mute-stream', { silentAfterHeaders: true });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const started = Date.now();
    const stream = await f.openai(key).chat.completions.create({ ...ask('fb-stream'), stream: true, stream_options: { include_usage: true } });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the fake upstream');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(f.fake.forKey('fb-mute-stream')).toHaveLength(1);
    await f.flush();
    expect(await consumeLogs(userId)).toEqual([{ channel_id: healthy, quota: 15, content: '', is_stream: 1 }]);
  });

  it('answers a 504 naming the option when the only channel stays silent, and bills nothing', async () => {
    await priced('fb-alone');
    await f.addChannel({ key: 'fb-alone-key', models: 'fb-alone' });
    f.fake.behave('fb-alone-key', { silentAfterHeaders: true });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const err = await f.openai(key).chat.completions.create(ask('fb-alone')).catch((e) => e);
    expect(err.status).toBe(504);
    expect(err.error.message).toContain('upstream sent nothing within 1 s (FirstByteTimeoutSeconds)');
    await f.flush();
    expect(await consumeLogs(userId)).toEqual([]);
    expect(await quotaOf(userId)).toBe(1_000_000);
  });

  it.each([false, true])('cancels upstream when the client leaves before the first byte (stream: %s): nothing billed, the log says so', async (stream) => {
    await f.setOption('FirstByteTimeoutSeconds', 0); // only the client's departure may end the wait
    try {
      const model = `fb-leave-${stream}`;
      await priced(model);
      const channel = await f.addChannel({ key: `${model}-key`, models: model });
      f.fake.behave(`${model}-key`, stream ? { silentAfterHeaders: true } : { silent: true });
      const { key, userId } = await f.newUser({ quota: 1_000_000 });
      const abandonedBefore = f.fake.abandoned;
      const controller = new AbortController();
      const call = f.openai(key).chat.completions.create({ ...ask(model), stream }, { signal: controller.signal }).catch((e) => e);
      await expect.poll(() => f.fake.forKey(`${model}-key`).length).toBe(1);
      controller.abort();
      expect(String(await call)).toMatch(/abort/i);
      await expect.poll(() => f.fake.abandoned, { timeout: 5000 }).toBe(abandonedBefore + 1);
      await expect.poll(() => relayState(f.server.ctx).inflight.of(userId)).toBe(0);
      await f.flush();
      expect(await consumeLogs(userId)).toEqual([{ channel_id: channel, quota: 0, content: 'client disconnected before the first byte', is_stream: stream ? 1 : 0 }]);
      expect(await quotaOf(userId)).toBe(1_000_000);
    } finally {
      await f.setOption('FirstByteTimeoutSeconds', 1);
    }
  });
});
