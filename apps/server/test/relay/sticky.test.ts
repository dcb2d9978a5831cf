import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { doorFixture, type DoorFixture } from '../doors/fixture.js';
import { relayState } from '../../src/relay/state.js';

const claudeCodeTurn = (model: string, session: string, turn: number) => ({
  model,
  max_tokens: 50,
  system: [{ type: 'text', text: 'You are Claude Code.' }],
  messages: [{ role: 'user', content: `turn ${turn}` }],
  metadata: { user_id: `user_abc_account_def_session_${session}` },
});

describe.each(testDialects())('conversation-sticky routing on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    ({ key } = await f.newUser({ quota: 100_000_000 }));
  });
  afterAll(async () => f?.close());

  /** Two equal channels (same priority and weight) of one family for `model`; returns their ids and keys. */
  async function pair(model: string, type: number, baseUrl: string) {
    const keys = [`${model}-a`, `${model}-b`];
    const ids = [];
    for (const k of keys) ids.push(await f.addChannel({ type, key: k, base_url: baseUrl, models: model, priority: 5, weight: 1 }));
    await f.unitPrice(model);
    return { ids, keys };
  }

  const served = (keys: string[], count: (k: string) => number) => keys.map(count);

  it('keeps 20 turns of one Claude Code session on one channel, moves when it is disabled, spreads other sessions', async () => {
    const { ids, keys } = await pair('sticky-claude', 14, f.claude.url);
    const client = f.anthropic(key);
    const count = (k: string) => f.claude.forKey(k).length;
    for (let turn = 0; turn < 20; turn++) await client.messages.create(claudeCodeTurn('sticky-claude', 'one', turn) as never);
    const counts = served(keys, count);
    expect(counts.sort()).toEqual([0, 20]);
    const held = count(keys[0]) === 20 ? 0 : 1;

    await f.root.put('/api/channel/', { id: ids[held], status: 2 });
    await relayState(f.server.ctx).selector.reload();
    for (let turn = 20; turn < 30; turn++) await client.messages.create(claudeCodeTurn('sticky-claude', 'one', turn) as never);
    expect(count(keys[held])).toBe(20);
    expect(count(keys[1 - held])).toBe(10);

    // Re-enabled, the session stays where it moved to: the cache there is the warm one.
    await f.root.put('/api/channel/', { id: ids[held], status: 1 });
    await relayState(f.server.ctx).selector.reload();
    for (let turn = 30; turn < 35; turn++) await client.messages.create(claudeCodeTurn('sticky-claude', 'one', turn) as never);
    expect(count(keys[1 - held])).toBe(15);

    // Twenty other sessions land on both channels (all on one: probability 2^-19).
    const before = served(keys, count);
    for (let s = 0; s < 20; s++) await client.messages.create(claudeCodeTurn('sticky-claude', `other-${s}`, 0) as never);
    const after = served(keys, count);
    expect(after[0] - before[0]).toBeGreaterThan(0);
    expect(after[1] - before[1]).toBeGreaterThan(0);
  });

  it('follows Codex prompt_cache_key, and a conversation without a session id by its opening', async () => {
    const { keys } = await pair('sticky-openai', 1, f.fake.url);
    const count = (k: string) => f.fake.forKey(k).length;
    const client = f.openai(key);
    for (let turn = 0; turn < 20; turn++) await client.responses.create({ model: 'sticky-openai', input: `step ${turn}`, prompt_cache_key: 'codex-conv-1' });
    expect(served(keys, count).sort()).toEqual([0, 20]);

    // No session id: the system prompt and first message name the conversation as it grows.
    const start = served(keys, count);
    const messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }> = [
      { role: 'system', content: 'You are a pair programmer.' },
      { role: 'user', content: 'Refactor utils.ts' },
    ];
    for (let turn = 0; turn < 20; turn++) {
      await client.chat.completions.create({ model: 'sticky-openai', messages });
      messages.push({ role: 'assistant', content: `done ${turn}` }, { role: 'user', content: `next ${turn}` });
    }
    const grown = served(keys, count).map((n, i) => n - start[i]);
    expect(grown.sort()).toEqual([0, 20]);
  });

  it('keeps a previous_response_id chain on one converted channel without a session id', async () => {
    const { keys } = await pair('sticky-chain', 14, f.claude.url);
    const count = (k: string) => f.claude.forKey(k).length;
    let previous: string | undefined;
    for (let turn = 0; turn < 20; turn++) {
      const r = await f.openai(key).responses.create({ model: 'sticky-chain', instructions: 'Be brief.', input: `turn ${turn}`, ...(previous ? { previous_response_id: previous } : {}) });
      previous = r.id;
    }
    expect(served(keys, count).sort()).toEqual([0, 20]);
  });

  it('keeps a previous_response_id chain passed through to OpenAI channels on one channel, plain and streamed turns', async () => {
    const { keys } = await pair('sticky-openai-chain', 1, f.fake.url);
    const count = (k: string) => f.fake.forKey(k).length;
    let previous: string | undefined;
    let sent: string | undefined;
    for (let turn = 0; turn < 20; turn++) {
      sent = previous;
      const body = { model: 'sticky-openai-chain', input: `turn ${turn}`, ...(previous ? { previous_response_id: previous } : {}) };
      if (turn % 2) {
        let done: any;
        for await (const e of await f.openai(key).responses.create({ ...body, stream: true })) if (e.type === 'response.completed') done = e;
        previous = done.response.id;
      } else previous = (await f.openai(key).responses.create(body)).id;
    }
    expect(served(keys, count).sort()).toEqual([0, 20]);
    // Upstream saw its own ids: the chain passed through untouched.
    expect(f.fake.forKey(keys.find((k) => count(k) === 20)!).at(-1)!.body.previous_response_id).toBe(sent);
  });

  it('keeps a Gemini CLI conversation (no session id) on one Gemini channel by its system instruction and first turn', async () => {
    const { keys } = await pair('sticky-gemini', 25, f.gemini.url);
    const count = (k: string) => f.gemini.forKey(k).length;
    const ai = f.genai(key);
    const contents: Array<{ role: string; parts: Array<{ text: string }> }> = [{ role: 'user', parts: [{ text: 'Explain this repo' }] }];
    for (let turn = 0; turn < 20; turn++) {
      await ai.models.generateContent({ model: 'sticky-gemini', contents, config: { systemInstruction: 'You are Gemini CLI.' } });
      contents.push({ role: 'model', parts: [{ text: `part ${turn}` }] }, { role: 'user', parts: [{ text: `go on ${turn}` }] });
    }
    expect(served(keys, count).sort()).toEqual([0, 20]);
  });

  it('moves on when the channel fails or is frozen by a 429', async () => {
    const { keys } = await pair('sticky-fail', 1, f.fake.url);
    await f.setOption('RetryTimes', 1);
    try {
      const count = (k: string) => f.fake.forKey(k).length;
      const ask = () => f.openai(key).chat.completions.create({ model: 'sticky-fail', messages: [{ role: 'user', content: 'x' }], prompt_cache_key: 'fail-session' } as never);
      await ask();
      const held = count(keys[0]) === 1 ? 0 : 1;
      const other = 1 - held;
      f.fake.behave(keys[held], { status: 500 });
      await ask(); // fails on the held channel, served by the other
      expect(count(keys[other])).toBe(1);
      f.fake.behave(keys[held], {});
      for (let i = 0; i < 5; i++) await ask();
      expect(count(keys[other])).toBe(6);
      expect(count(keys[held])).toBe(2);

      // A 429 freezes the channel: the session moves back and stays.
      f.fake.behave(keys[other], { status: 429, retryAfter: 60 });
      await ask();
      f.fake.behave(keys[other], {});
      for (let i = 0; i < 5; i++) await ask();
      expect(count(keys[held])).toBe(2 + 6);
    } finally {
      await f.setOption('RetryTimes', 0);
    }
  });

  it('forgets a session after StickySessionTTLSeconds, and does nothing when it is 0', async () => {
    await f.setOption('StickySessionTTLSeconds', 1);
    try {
      const { keys } = await pair('sticky-ttl', 1, f.fake.url);
      const keysBefore = await stickyEntries();
      await f.openai(key).chat.completions.create({ model: 'sticky-ttl', messages: [{ role: 'user', content: 'ttl' }], prompt_cache_key: 'ttl-session' } as never);
      const added = (await stickyEntries()) - keysBefore;
      expect(added).toBe(1);
      await new Promise((r) => setTimeout(r, 1200));
      expect(await stickyEntries()).toBe(keysBefore);
      await f.setOption('StickySessionTTLSeconds', 0);
      for (let i = 0; i < 20; i++) await f.openai(key).chat.completions.create({ model: 'sticky-ttl', messages: [{ role: 'user', content: 'ttl' }], prompt_cache_key: 'ttl-session' } as never);
      const spread = keys.map((k) => f.fake.forKey(k).length);
      expect(Math.min(...spread)).toBeGreaterThan(0);
    } finally {
      await f.setOption('StickySessionTTLSeconds', 3600);
    }
  });

  it('keeps no session entry for a model only one channel serves, and keeps one once a second channel exists, even disabled', async () => {
    const model = 'sticky-single';
    await f.addChannel({ type: 1, key: `${model}-a`, base_url: f.fake.url, models: model, priority: 5, weight: 1 });
    await f.unitPrice(model);
    const ask = () => f.openai(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'one' }], prompt_cache_key: 'single-session' } as never);
    const before = await stickyEntries();
    await ask();
    expect(await stickyEntries()).toBe(before);
    // A disabled channel may come back: the session is remembered so it stays where it is then.
    const second = await f.addChannel({ type: 1, key: `${model}-b`, base_url: f.fake.url, models: model, priority: 5, weight: 1 });
    await f.root.put('/api/channel/', { id: second, status: 2 });
    await relayState(f.server.ctx).selector.reload();
    await ask();
    expect(await stickyEntries()).toBe(before + 1);
    expect(f.fake.forKey(`${model}-a`)).toHaveLength(2);
  });

  /** Live sticky entries in the store (memory store: read through its own get, which honours expiry). */
  async function stickyEntries(): Promise<number> {
    const memory = (f.server.ctx.store as unknown as { memory: { entries: Map<string, unknown> } }).memory.entries;
    let live = 0;
    for (const k of [...memory.keys()].filter((k) => k.startsWith('sticky:'))) if (await f.server.ctx.store.get(k)) live++;
    return live;
  }
});

describe.skipIf(!redisAvailable())('conversation-sticky routing shared by two nodes through Redis', () => {
  let f: DoorFixture;
  let b: TestServer;
  let bUrl: string;
  beforeAll(async () => {
    f = await doorFixture('sqlite', { REDIS_CONN_STRING: process.env.TEST_REDIS_CONN_STRING!, REDIS_KEY_PREFIX: `sticky:${Date.now()}:` });
    b = await startTestServer('sqlite', { reuse: f.server });
    bUrl = await b.listen();
  });
  afterAll(async () => {
    await b?.close();
    await f?.close();
  });

  it('sends one session to one channel whichever node takes the request', async () => {
    const { key } = await f.newUser({ quota: 100_000_000 });
    const keys = ['redis-a', 'redis-b'];
    for (const k of keys) await f.addChannel({ key: k, models: 'sticky-redis', priority: 5, weight: 1 });
    await f.unitPrice('sticky-redis');
    const { default: OpenAI } = await import('openai');
    const nodes = [f.openai(key), new OpenAI({ apiKey: key, baseURL: `${bUrl}/v1`, maxRetries: 0 })];
    await expect.poll(async () => nodes[1].chat.completions.create({ model: 'sticky-redis', messages: [{ role: 'user', content: 'warm' }] }).then(() => 'ok', (e) => String(e.status)), { timeout: 3000 }).toBe('ok');
    // Four sessions, ten turns each, alternating nodes: without a shared entry each node would
    // choose on its own and a session would agree with itself by chance only (1 in 16 for all four).
    for (let session = 0; session < 4; session++) {
      const start = keys.map((k) => f.fake.forKey(k).length);
      for (let i = 0; i < 10; i++) {
        await nodes[i % 2].chat.completions.create({ model: 'sticky-redis', messages: [{ role: 'user', content: 'go' }], prompt_cache_key: `shared-${session}` } as never);
      }
      const grown = keys.map((k, i) => f.fake.forKey(k).length - start[i]);
      expect(grown.sort((a, b) => a - b)).toEqual([0, 10]);
    }
  });
});
