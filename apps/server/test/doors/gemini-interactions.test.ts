import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects } from '../harness.js';
import { relayState } from '../../src/relay/state.js';
import { flushResponseOwners } from '../../src/relay/responses/owners.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const ANSWER = 'Hello from the fake Gemini';

/**
 * Issue 36 item 6: Gemini's Interactions API on Gemini channels, through the official
 * `@google/genai` client. Passed through; the gateway records which user and channel own each
 * interaction, so `previous_interaction_id` reaches the channel that keeps it (two channels
 * serve the model, and the fake keeps interactions per key, as Google keeps them per project),
 * and bills every turn from the usage the interaction reports.
 */
describe.each(testDialects())('Gemini Interactions API on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  let userId: number;
  let other: string;
  const geminiKeys = ['gx-a-key', 'gx-b-key'];
  const channelOf = new Map<string, number>();
  const db = () => f.server.ctx.db;
  const quotaOf = async (id: number) => Number((await db().selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);
  const logs = async (id: number) => {
    await f.flush();
    return db().selectFrom('logs').selectAll().where('user_id', '=', id).where('type', '=', 2).orderBy('id').execute();
  };
  /** The channel key the fake kept an interaction under. */
  const ownerKey = (id: string) => geminiKeys.find((k) => f.gemini.interactions.of(k).some((i) => i.id === id));
  const calls = () => f.gemini.received.filter((r) => r.path.includes('/interactions'));

  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.unitPrice('gx-model');
    await f.unitPrice('gx-openai');
    for (const k of geminiKeys) channelOf.set(k, await f.addChannel({ type: 25, key: k, base_url: f.gemini.url, models: 'gx-model', model_mapping: JSON.stringify({ 'gx-model': '+gemini-2.5-flash' }) }));
    await f.addChannel({ type: 1, key: 'gx-openai-key', models: 'gx-openai' });
    ({ key, userId } = await f.newUser({ quota: 10_000_000 }));
    ({ key: other } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => f?.close());

  it('creates an interaction through @google/genai, passed through and billed exactly on its reported usage', async () => {
    const before = await quotaOf(userId);
    const client = f.genai(key);
    const created = await client.interactions.create({ model: 'gx-model', input: 'Tell me a story' });
    expect(created.status).toBe('completed');
    expect(created.output_text).toBe(ANSWER);
    expect(created.id.length).toBeGreaterThan(64); // longer than a response id: ownership keys must hold it
    const got = calls().at(-1)!;
    expect(got).toMatchObject({ method: 'POST', path: '/v1beta/interactions' });
    expect(got.body).toEqual({ model: 'gemini-2.5-flash', input: 'Tell me a story' });
    expect(got.headers['x-goog-api-key']).toBe(ownerKey(created.id!));
    const [row] = (await logs(userId)).slice(-1);
    expect(row).toMatchObject({ model_name: 'gx-model', prompt_tokens: 4, completion_tokens: 5, quota: 9 });
    expect(JSON.parse(row.metadata!)).toMatchObject({ door: '/v1beta/interactions', usage_source: 'reported' });
    expect(before - (await quotaOf(userId))).toBe(9);
  });

  it('sends every follow-up naming previous_interaction_id to the channel that keeps it, billed with its context', async () => {
    const client = f.genai(key);
    const first = await client.interactions.create({ model: 'gx-model', input: 'one two three' });
    const owner = ownerKey(first.id!)!;
    let previous = first.id!;
    // The fake answers an id another key made with a 404: any turn routed elsewhere would fail.
    for (let i = 0; i < 6; i++) {
      const next = await client.interactions.create({ model: 'gx-model', input: 'and then', previous_interaction_id: previous });
      expect(next.output_text).toBe(ANSWER);
      expect(calls().at(-1)!.key).toBe(owner);
      expect(ownerKey(next.id!)).toBe(owner);
      previous = next.id!;
    }
    const rows = (await logs(userId)).slice(-7);
    // Turn n reads the n-1 turns before it: 3 + 5, then 2 + 5 more words per turn.
    expect(rows.map((r) => r.prompt_tokens)).toEqual([3, 10, 17, 24, 31, 38, 45]);
    expect(rows.every((r) => r.completion_tokens === 5 && r.quota === r.prompt_tokens + 5)).toBe(true);
  });

  it('streams an interaction as upstream sends it, owns it from its first event, and bills the completed usage', async () => {
    const before = await quotaOf(userId);
    const client = f.genai(key);
    const stream = await client.interactions.create({ model: 'gx-model', input: 'Count for me', stream: true });
    const events: any[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.event_type)).toEqual([
      'interaction.created', 'interaction.status_update', 'step.start',
      'step.delta', 'step.delta', 'step.delta', 'step.delta', 'step.delta',
      'step.stop', 'interaction.completed',
    ]);
    expect(events.filter((e) => e.event_type === 'step.delta').map((e) => e.delta.text).join('')).toBe(ANSWER);
    const id = events[0].interaction.id;
    expect(calls().at(-1)!.body).toMatchObject({ stream: true, model: 'gemini-2.5-flash' });
    const [row] = (await logs(userId)).slice(-1);
    expect(row).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, quota: 8, is_stream: 1 });
    expect(JSON.parse(row.metadata!).usage_source).toBe('reported');
    expect(before - (await quotaOf(userId))).toBe(8);

    const next = await client.interactions.create({ model: 'gx-model', input: 'more', previous_interaction_id: id });
    expect(next.output_text).toBe(ANSWER);
    expect(calls().at(-1)!.key).toBe(ownerKey(id));
  });

  it('passes retrieve, cancel and delete to the owning channel; a deleted id is then unknown', async () => {
    const client = f.genai(key);
    const created = await client.interactions.create({ model: 'gx-model', input: 'keep me' });
    const owner = ownerKey(created.id)!;
    const billed = (await logs(userId)).length;
    for (let i = 0; i < 3; i++) {
      const got = await client.interactions.get(created.id);
      expect(got).toMatchObject({ id: created.id, status: 'completed', output_text: ANSWER });
      expect(calls().at(-1)).toMatchObject({ method: 'GET', path: `/v1beta/interactions/${created.id}`, key: owner });
    }
    // A streamed retrieval comes back as upstream's event stream.
    const replay = await fetch(`${f.url}/v1beta/interactions/${created.id}?stream=true`, { headers: { 'x-goog-api-key': key } });
    expect(replay.headers.get('content-type')).toContain('text/event-stream');
    const text = await replay.text();
    expect(text).toContain('event: interaction.completed');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(calls().at(-1)).toMatchObject({ method: 'GET', key: owner });
    expect(calls().at(-1)!.query.get('stream')).toBe('true');
    const cancel = await client.interactions.cancel(created.id).catch((e) => e);
    expect(cancel.status).toBe(400);
    expect(String(cancel.message)).toContain('Only background interactions can be cancelled');
    expect(calls().at(-1)).toMatchObject({ method: 'POST', path: `/v1beta/interactions/${created.id}/cancel`, key: owner });

    await client.interactions.delete(created.id);
    expect(calls().at(-1)).toMatchObject({ method: 'DELETE', key: owner });
    expect(ownerKey(created.id)).toBeUndefined();
    const seen = calls().length;
    const gone = await client.interactions.get(created.id).catch((e) => e);
    expect(gone.status).toBe(404);
    expect(calls().length).toBe(seen);
    // Retrieval, cancel and delete are free.
    expect((await logs(userId)).length).toBe(billed);
  });

  it("answers another user's interaction like an unknown one and never lets them continue it", async () => {
    const created = await f.genai(key).interactions.create({ model: 'gx-model', input: 'private' });
    const stranger = f.genai(other);
    const seen = calls().length;
    for (const call of [() => stranger.interactions.get(created.id), () => stranger.interactions.delete(created.id), () => stranger.interactions.cancel(created.id)]) {
      const e: any = await call().catch((err) => err);
      expect(e.status).toBe(404);
    }
    const follow = await stranger.interactions.create({ model: 'gx-model', input: 'let me in', previous_interaction_id: created.id }).catch((e) => e);
    expect(follow.status).toBe(404);
    expect(calls().length).toBe(seen);
    expect((await f.genai(key).interactions.get(created.id)).id).toBe(created.id);
  });

  it('refuses a follow-up with a clear 400 once the owning channel is disabled', async () => {
    const created = await f.genai(key).interactions.create({ model: 'gx-model', input: 'soon gone' });
    const owner = ownerKey(created.id)!;
    await f.root.put('/api/channel/', { id: channelOf.get(owner), status: 2 });
    await relayState(f.server.ctx).selector.reload();
    try {
      const seen = calls().length;
      const refused = await f.genai(key).interactions.create({ model: 'gx-model', input: 'still there?', previous_interaction_id: created.id }).catch((e) => e);
      expect(refused.status).toBe(400);
      expect(String(refused.message)).toContain('kept by a channel that is no longer available');
      const get = await f.genai(key).interactions.get(created.id).catch((e) => e);
      expect(get.status).toBe(400);
      expect(calls().length).toBe(seen);
    } finally {
      await f.root.put('/api/channel/', { id: channelOf.get(owner), status: 1 });
      await relayState(f.server.ctx).selector.reload();
    }
  });

  it('serves the v1 path beside v1beta, forwarding the API revision header', async () => {
    const res = await fetch(`${f.url}/v1/interactions`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json', 'api-revision': '2026-05-20' },
      body: JSON.stringify({ model: 'models/gx-model', input: 'hi there' }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.steps.at(-1).content[0].text).toBe(ANSWER);
    expect(calls().at(-1)).toMatchObject({ path: '/v1beta/interactions' });
    expect(calls().at(-1)!.headers['api-revision']).toBe('2026-05-20');
    const got = await fetch(`${f.url}/v1/interactions/${body.id}`, { headers: { 'x-goog-api-key': key } });
    expect((await got.json()).id).toBe(body.id);
  });

  it('refuses what it cannot serve with a 400 in Google shape: other channel families', async () => {
    const post = (body: unknown) => fetch(`${f.url}/v1beta/interactions`, { method: 'POST', headers: { 'x-goog-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const seen = f.fake.received.length;
    const openai = await post({ model: 'gx-openai', input: 'hi' });
    expect(openai.status).toBe(400);
    expect((await openai.json()).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('does not serve interactions: /v1beta/interactions needs a Gemini channel') });
    expect(f.fake.received.length).toBe(seen);
  });

  it('keeps ownership in the database: a second node continues and retrieves, a stranger still gets 404', async () => {
    const created = await f.genai(key).interactions.create({ model: 'gx-model', input: 'across nodes' });
    await flushResponseOwners(f.server.ctx);
    const node = await startTestServer(dialect, { reuse: f.server });
    try {
      const url = await node.listen();
      const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } });
      expect((await client.interactions.get(created.id)).id).toBe(created.id);
      const next = await client.interactions.create({ model: 'gx-model', input: 'next', previous_interaction_id: created.id });
      expect(ownerKey(next.id)).toBe(ownerKey(created.id));
      const stranger = await new GoogleGenAI({ apiKey: other, httpOptions: { baseUrl: url } }).interactions.get(created.id).catch((e) => e);
      expect(stranger.status).toBe(404);
    } finally {
      await node.close();
    }
  });
});
