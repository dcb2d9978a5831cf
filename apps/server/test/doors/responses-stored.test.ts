import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';
import { flushResponseOwners } from '../../src/relay/responses/owners.js';

/** Retrieve, delete, cancel and input_items of stored responses, through the official SDK. */
describe.each(testDialects())('stored responses on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  let other: string;
  const openaiKeys = ['stored-a-key', 'stored-b-key'];
  const channelOf = new Map<string, number>();
  beforeAll(async () => {
    f = await doorFixture(dialect);
    for (const m of ['stored-openai', 'stored-claude']) await f.unitPrice(m);
    for (const k of openaiKeys) channelOf.set(k, await f.addChannel({ type: 1, key: k, models: 'stored-openai' }));
    await f.addChannel({ type: 14, key: 'stored-claude-key', base_url: f.claude.url, models: 'stored-claude' });
    ({ key } = await f.newUser({ quota: 10_000_000 }));
    ({ key: other } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => f?.close());

  /** The channel key that answered the last create of `id`. */
  const ownerKey = (id: string) => f.fake.kept.get(id)!.key;
  const lastCall = () => f.fake.received.at(-1)!;

  it('passes retrieve, input_items, cancel and delete to the OpenAI channel that keeps the response', async () => {
    const client = f.openai(key);
    const created = await client.responses.create({ model: 'stored-openai', input: 'Remember this' });
    const owner = ownerKey(created.id);
    for (let i = 0; i < 4; i++) {
      const got = await client.responses.retrieve(created.id);
      expect(got).toMatchObject({ id: created.id, object: 'response', status: 'completed' });
      expect(lastCall()).toMatchObject({ path: `/v1/responses/${created.id}`, key: owner });
    }
    const items = await client.responses.inputItems.list(created.id);
    expect(items.data).toHaveLength(1);
    expect(items.data[0]).toMatchObject({ type: 'message', role: 'user' });
    expect(lastCall().key).toBe(owner);

    const cancel = await client.responses.cancel(created.id).catch((e) => e);
    expect(cancel.status).toBe(400);
    expect(cancel.error.message).toContain('Cannot cancel a synchronous response');

    await client.responses.delete(created.id);
    expect(lastCall()).toMatchObject({ path: `/v1/responses/${created.id}`, key: owner });
    expect(f.fake.kept.has(created.id)).toBe(false);
    const gone = await client.responses.retrieve(created.id).catch((e) => e);
    expect(gone.status).toBe(404);
  });

  it("answers another user's id exactly like an unknown one, and never lets them continue it", async () => {
    const created = await f.openai(key).responses.create({ model: 'stored-openai', input: 'private' });
    const converted = await f.openai(key).responses.create({ model: 'stored-claude', input: 'private too' });
    const seen = f.fake.received.length;
    const stranger = f.openai(other);
    for (const id of [created.id, converted.id]) {
      for (const call of [() => stranger.responses.retrieve(id), () => stranger.responses.delete(id), () => stranger.responses.cancel(id), () => stranger.responses.inputItems.list(id)]) {
        const e = await call().catch((err) => err);
        expect(e.status).toBe(404);
        expect(e.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining(`Response with id '${id}' not found.`) });
      }
    }
    // Same status and body as an id nobody owns, once the id and the request id are taken out.
    const shape = (e: { status: number; error: object }, id: string) => [e.status, JSON.stringify(e.error).replace(id, 'ID').replace(/request id: [^)]+/, '')];
    const unknown = await stranger.responses.retrieve('resp_nobody').catch((e) => e);
    const foreign = await stranger.responses.retrieve(created.id).catch((e) => e);
    expect(shape(foreign, created.id)).toEqual(shape(unknown, 'resp_nobody'));
    const follow = await stranger.responses.create({ model: 'stored-openai', input: 'go on', previous_response_id: created.id }).catch((e) => e);
    expect(follow.status).toBe(404);
    expect(f.fake.received.length).toBe(seen); // nothing of it reached upstream
    expect(await f.openai(key).responses.retrieve(created.id)).toMatchObject({ id: created.id });
  });

  it('sends a follow-up to the channel keeping its previous response, and refuses it with a 409 once that channel is disabled', async () => {
    const client = f.openai(key);
    const first = await client.responses.create({ model: 'stored-openai', input: 'one', prompt_cache_key: 'affinity' });
    const owner = ownerKey(first.id);
    for (let i = 0; i < 4; i++) {
      await client.responses.create({ model: 'stored-openai', input: `two ${i}`, previous_response_id: first.id });
      expect(lastCall()).toMatchObject({ key: owner, body: { previous_response_id: first.id } });
    }
    await f.root.put('/api/channel/', { id: channelOf.get(owner), status: 2 });
    await relayState(f.server.ctx).selector.reload();
    try {
      const seen = f.fake.received.length;
      const refused = await client.responses.create({ model: 'stored-openai', input: 'three', previous_response_id: first.id }).catch((e) => e);
      expect(refused.status).toBe(409);
      expect(refused.error).toMatchObject({ code: 'previous_response_channel_unavailable', message: expect.stringContaining('send the whole conversation') });
      expect(f.fake.received.length).toBe(seen);
    } finally {
      await f.root.put('/api/channel/', { id: channelOf.get(owner), status: 1 });
      await relayState(f.server.ctx).selector.reload();
    }
  });

  it('serves retrieve, input_items, cancel and delete itself for a converted (Anthropic) response', async () => {
    f.claude.behave('stored-claude-key', { content: 'Kept by the gateway' });
    const client = f.openai(key);
    const first = await client.responses.create({ model: 'stored-claude', input: 'Hello' });
    const second = await client.responses.create({ model: 'stored-claude', input: [{ role: 'user', content: 'And again' }], previous_response_id: first.id });
    const got = await client.responses.retrieve(second.id);
    expect(got).toMatchObject({ id: second.id, object: 'response', status: 'completed', previous_response_id: first.id });
    expect(got.output_text).toBe('Kept by the gateway');

    // The input of the second turn: the first turn's question and answer, then the new message (newest first by default).
    const items = await client.responses.inputItems.list(second.id, { order: 'asc' });
    expect(items.data.map((i) => ('role' in i ? i.role : i.type))).toEqual(['user', 'assistant', 'user']);
    expect(new Set(items.data.map((i) => i.id)).size).toBe(3);
    const page = await client.responses.inputItems.list(second.id, { limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.data[0].id).toBe(items.data[2].id);
    const bad = await client.responses.inputItems.list(second.id, { limit: 0 }).catch((e) => e);
    expect(bad.status).toBe(400);
    const streamed = await fetch(`${f.url}/v1/responses/${second.id}?stream=true`, { headers: { authorization: `Bearer ${key}` } });
    expect(streamed.status).toBe(400);

    const cancel = await client.responses.cancel(second.id).catch((e) => e);
    expect(cancel.status).toBe(400);
    expect(cancel.error.message).toContain('Cannot cancel a synchronous response');

    await client.responses.delete(second.id);
    expect((await client.responses.retrieve(second.id).catch((e) => e)).status).toBe(404);
    const follow = await client.responses.create({ model: 'stored-claude', input: 'more', previous_response_id: second.id }).catch((e) => e);
    expect(follow.status).toBe(400);
  });

  it('does not read a static responses path as an id, nor an id that cannot be one', async () => {
    const res = await fetch(`${f.url}/v1/responses/input_tokens`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"model":"stored-openai","input":"x"}' });
    expect(JSON.stringify(await res.json())).not.toContain("Response with id 'input_tokens'");
    const odd = await fetch(`${f.url}/v1/responses/${encodeURIComponent('a\u0000b')}`, { headers: { authorization: `Bearer ${key}` } });
    expect(odd.status).toBe(400);
    // The one string boundary answers first, naming the path parameter.
    expect((await odd.json()).error.message).toContain('path.id: must not contain NUL');
  });

  it('keeps ownership in the database: a second node on the same database retrieves both kinds', async () => {
    const passed = await f.openai(key).responses.create({ model: 'stored-openai', input: 'across nodes' });
    const converted = await f.openai(key).responses.create({ model: 'stored-claude', input: 'across nodes too' });
    await flushResponseOwners(f.server.ctx);
    const node = await startTestServer(dialect, { reuse: f.server });
    try {
      const url = await node.listen();
      const { default: OpenAI } = await import('openai');
      const client = new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 });
      expect(await client.responses.retrieve(passed.id)).toMatchObject({ id: passed.id });
      expect(lastCall()).toMatchObject({ path: `/v1/responses/${passed.id}`, key: ownerKey(passed.id) });
      expect(await client.responses.retrieve(converted.id)).toMatchObject({ id: converted.id, output_text: converted.output_text });
      const stranger = await new OpenAI({ apiKey: other, baseURL: `${url}/v1`, maxRetries: 0 }).responses.retrieve(passed.id).catch((e) => e);
      expect(stranger.status).toBe(404);
    } finally {
      await node.close();
    }
  });
});
