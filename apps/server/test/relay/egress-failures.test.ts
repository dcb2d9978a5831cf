import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { addPrices, pollers } from './task-fixture.js';
import { collect } from './ws-events.js';
import { FakeMidjourney } from '../fakes/midjourney.js';
import { FakeSuno } from '../fakes/suno.js';
import { deadUrl, FakeLeakyUpstream, LEAKED_ADDRESS, LEAKED_HOST } from '../fakes/leaky-upstream.js';

type User = Awaited<ReturnType<RelayFixture['newUser']>>;

const KEYS = {
  mj: 'mjleak-0123456789abcdef',
  suno: 'sunoleak-0123456789abcdef',
  kling: 'klingaccess-0123456|klingsecret-0123456789',
  videos: 'videoleak-0123456789abcdef',
  realtime: 'rtleak-0123456789abcdef',
};
const REQUEST_ID = /\(request id: (\w+)\)/;

/**
 * Issue 35 defect 2: every door's failure of an outside party reaches a common user as the
 * status class, a generic reason and the request id — answers, task records, realtime frames
 * and their own log alike — and the admin's log view keeps the upstream text without the keys.
 */
describe.each(testDialects())('outside failures of task doors, realtime and proxies on %s', (dialect) => {
  let f: RelayFixture;
  let leaky: FakeLeakyUpstream;
  let dead: string;
  let alice: User;
  const secrets = () => [LEAKED_HOST, LEAKED_ADDRESS.split(':')[0], new URL(leaky.url).host, new URL(dead).port, ...Object.values(KEYS).flatMap((k) => [k, ...k.split('|')])];

  /** The text names no key, host, address or port, and answers the request id it carries. */
  const clean = (text: string): string => {
    for (const s of secrets()) expect(text, `leaks ${s}`).not.toContain(s);
    const id = REQUEST_ID.exec(text)?.[1];
    expect(id, `no request id in ${text}`).toBeTruthy();
    return id!;
  };
  const call = (key: string, method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    f.server.app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...headers }, payload });

  beforeAll(async () => {
    leaky = new FakeLeakyUpstream();
    await leaky.start();
    dead = await deadUrl();
    f = await relayFixture(dialect);
    await f.addChannel({ type: 34, key: KEYS.mj, base_url: leaky.url, models: 'mj_imagine' });
    await f.addChannel({ type: 41, key: KEYS.suno, base_url: leaky.url, models: 'chirp-v3-0' });
    await f.addChannel({ type: 53, key: KEYS.kling, base_url: leaky.url, models: 'kling-video_kling-v1_std_5' });
    await f.addChannel({ type: 1, key: KEYS.videos, base_url: leaky.url, models: 'sora-2' });
    await f.addChannel({ type: 1, key: KEYS.realtime, base_url: leaky.url, models: 'rt-leak' });
    await f.addChannel({ type: 1, key: KEYS.realtime, base_url: dead, models: 'rt-dead' });
    await addPrices(f, { mj_imagine: 1, mj_relax_imagine: 1, 'chirp-v3-0': 1, 'kling-video_kling-v1_std_5': 1, 'sora-2': 1 });
    await f.server.ctx.db.insertInto('prices').values([{ model: 'rt-leak', type: 'tokens', channel_type: 1, input: 1, output: 1 }, { model: 'rt-dead', type: 'tokens', channel_type: 1, input: 1, output: 1 }]).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    alice = await f.newUser({ quota: 1_000_000 });
  });
  afterAll(async () => {
    await f?.close();
    await leaky?.close();
  });

  it('maps every task door, tells the request id and records nothing upstream-named for the user', async () => {
    const mj = await call(alice.key, 'POST', '/mj/submit/imagine', { prompt: 'a cat' }, { 'mj-api-secret': alice.key });
    expect(mj.statusCode).toBe(502);
    expect(mj.json()).toMatchObject({ code: 500, description: expect.stringMatching(/^upstream error /) });
    const ids = [clean(mj.body)];

    const suno = await call(alice.key, 'POST', '/suno/submit/music', { prompt: 'a song' });
    expect(suno.statusCode).toBe(503);
    expect(suno.json()).toMatchObject({ code: 'upstream_unavailable', data: null });
    ids.push(clean(suno.body));

    const kling = await call(alice.key, 'POST', '/kling/v1/videos/text2video', { prompt: 'a wave' });
    expect(kling.statusCode).toBe(502);
    expect(kling.json()).toMatchObject({ code: 'upstream_broken_answer', message: expect.stringMatching(/^upstream sent a broken answer /), data: null });
    ids.push(clean(kling.body));

    const video = await f.openai(alice.key).videos.create({ model: 'sora-2', prompt: 'a wave' }).catch((e: unknown) => e as { status: number; message: string; error: unknown });
    expect(video).toMatchObject({ status: 503 });
    ids.push(clean(JSON.stringify((video as { error: unknown }).error)));

    // The task record the user reads of the refused Midjourney submission.
    const tasks = await alice.client.get('/api/mj/self?page=1&size=10');
    clean(JSON.stringify(tasks.body.data));

    await f.flush();
    const own = (await alice.client.get('/api/log/self?log_type=5')).body.data.data as Array<{ request_id: string; content: string }>;
    expect(own.map((l) => l.request_id).sort()).toEqual([...ids].sort());
    for (const row of own) {
      for (const s of secrets()) expect(JSON.stringify(row)).not.toContain(s);
      expect(row).toMatchObject({ channel_id: 0 });
    }
    const admin = (await f.root.get('/api/log/?log_type=5')).body.data.data as Array<{ request_id: string; content: string }>;
    for (const id of ids) {
      const row = admin.find((l) => l.request_id === id)!;
      expect(row.content).toContain(LEAKED_HOST);
      for (const k of Object.values(KEYS).flatMap((k) => k.split('|'))) expect(row.content).not.toContain(k);
    }
  });

  it('maps a realtime error event and a handshake to a dead upstream', async () => {
    const ws = new WebSocket(`${f.url.replace('http', 'ws')}/v1/realtime?model=rt-leak`, { headers: { authorization: `Bearer ${alice.key}` } });
    const s = collect(ws);
    await once(ws, 'open');
    const [error] = await s.waitFor('error');
    expect(error.error).toMatchObject({ type: 'server_error', code: 'upstream_error' });
    clean(JSON.stringify(error));
    ws.close();
    await s.closed;

    const refused = new WebSocket(`${f.url.replace('http', 'ws')}/v1/realtime?model=rt-dead`, { headers: { authorization: `Bearer ${alice.key}` } });
    refused.on('error', () => {});
    const [, res] = (await once(refused, 'unexpected-response')) as [unknown, import('node:http').IncomingMessage];
    let body = '';
    for await (const chunk of res) body += chunk;
    expect(res.statusCode).toBe(502);
    expect(JSON.parse(body).error).toMatchObject({ code: 'upstream_unreachable' });
    clean(body);
  });

  it('scrubs every host from the caller\'s own 4xx on a model door, not only the base URL\'s (defect 10)', async () => {
    f.fake.behave('chat-leak-0123456789', { status: 400, errorBody: { error: { message: `bad tool schema, rejected by ${LEAKED_HOST} at ${LEAKED_ADDRESS}`, type: 'invalid_request_error', code: 'invalid_value' } } });
    await f.addChannel({ key: 'chat-leak-0123456789', models: 'leak-chat' });
    await f.server.ctx.db.insertInto('prices').values({ model: 'leak-chat', type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    const res = await call(alice.key, 'POST', '/v1/chat/completions', { model: 'leak-chat', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^Provider API error: bad tool schema, rejected by \[upstream\] at \[upstream\] /);
    clean(res.body);
  });

  it('scrubs the failure reason a poll brings back before the user reads the task', async () => {
    const suno = new FakeSuno();
    const mj = new FakeMidjourney();
    await Promise.all([suno.start(), mj.start()]);
    const reason = (key: string) => `worker ${LEAKED_ADDRESS} (${LEAKED_HOST}) crashed for key ${key}`;
    suno.behave('suno-poll-0123456789', { failWith: reason('suno-poll-0123456789') });
    mj.behave('mj-poll-0123456789', { failWith: reason('mj-poll-0123456789'), pollsToFinish: 1 });
    await f.addChannel({ type: 41, key: 'suno-poll-0123456789', base_url: suno.url, models: 'suno_lyrics' });
    await f.addChannel({ type: 34, key: 'mj-poll-0123456789', base_url: mj.url, models: 'mj_turbo_imagine' });
    await addPrices(f, { suno_lyrics: 1, mj_turbo_imagine: 1 });
    const lyric = (await call(alice.key, 'POST', '/suno/submit/lyrics', { prompt: 'words' })).json().data as string;
    const image = (await call(alice.key, 'POST', '/mj-turbo/mj/submit/imagine', { prompt: 'x' }, { 'mj-api-secret': alice.key })).json().result as string;
    for (let i = 0; i < 3; i++) await Promise.all([pollers(f).suno.runNow(), pollers(f).midjourney.runNow()]);
    const sunoTask = (await call(alice.key, 'GET', `/suno/fetch/${lyric}`)).json().data;
    const mjTask = (await call(alice.key, 'GET', `/mj/task/${image}/fetch`, undefined, { 'mj-api-secret': alice.key })).json();
    expect(sunoTask).toMatchObject({ status: 'FAILURE', fail_reason: 'worker [upstream] ([upstream]) crashed for key ***' });
    expect(mjTask).toMatchObject({ status: 'FAILURE', failReason: 'worker [upstream] ([upstream]) crashed for key ***' });
    for (const text of [JSON.stringify(sunoTask), JSON.stringify(mjTask)]) for (const s of [...secrets(), 'suno-poll-0123456789', 'mj-poll-0123456789']) expect(text).not.toContain(s);
    await Promise.all([suno.close(), mj.close()]);
  });

  it('maps the Midjourney image proxy of a dead host', async () => {
    const mj = new FakeMidjourney();
    await mj.start();
    mj.behave('mj-good-0123456789', { codes: [21] });
    await f.addChannel({ type: 34, key: 'mj-good-0123456789', base_url: mj.url, models: 'mj_relax_imagine' });
    const done = await call(alice.key, 'POST', '/mj-relax/mj/submit/imagine', { prompt: 'a dog' }, { 'mj-api-secret': alice.key });
    expect(done.json()).toMatchObject({ code: 1 });
    const host = new URL(mj.url).host;
    await mj.close();
    const image = await call(alice.key, 'GET', `/mj/image/${done.json().result}`, undefined, { 'mj-api-secret': alice.key });
    expect(image.statusCode).toBe(502);
    expect(image.json()).toMatchObject({ description: expect.stringMatching(/^upstream could not be reached /) });
    expect(image.body).not.toContain(host);
    clean(image.body);
  });
});
