import type OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';

type Item = OpenAI.Responses.ResponseInputItem;
const SEALED = 'reasoning.encrypted_content' as const;

/**
 * Issue 36 point 2: a stateless follow-up (`store: false`, the whole history in `input`) carrying
 * encrypted reasoning or a compaction item reaches the channel that produced it, because no other
 * upstream account can read it; when that channel is gone it is refused, never rerouted.
 */
describe.each(testDialects())('encrypted items go back to their channel on %s', (dialect) => {
  let f: DoorFixture;
  const channelOf = new Map<string, number>();

  beforeAll(async () => {
    // With Redis configured the digests live there (one MGET per follow-up, one transaction per answer).
    f = await doorFixture(dialect, REDIS_URL ? { REDIS_CONN_STRING: REDIS_URL, REDIS_KEY_PREFIX: `sealed-test:${Date.now()}:${dialect}:` } : {});
    for (const m of ['sealed', 'sealed-a', 'sealed-b']) await f.unitPrice(m);
    // Two equal OpenAI channels serve `sealed`; `sealed-a` and `sealed-b` reach one of them each.
    channelOf.set('A', await f.addChannel({ type: 1, key: 'sealed-a-key', models: 'sealed,sealed-a' }));
    channelOf.set('B', await f.addChannel({ type: 1, key: 'sealed-b-key', models: 'sealed,sealed-b' }));
    await f.unitPrice('sealed-claude');
    await f.addChannel({ type: 14, key: 'sealed-claude-key', base_url: f.claude.url, models: 'sealed-claude' });
  });
  afterAll(async () => f?.close());

  const onA = () => f.fake.forKey('sealed-a-key');
  const onB = () => f.fake.forKey('sealed-b-key');

  /** The first turn of a conversation on the channel `model` reaches, with encrypted reasoning asked for. */
  async function firstTurn(key: string, model: string, text: string): Promise<Item[]> {
    const input: Item[] = [{ role: 'user', content: text }];
    const answer = await f.openai(key).responses.create({ model, input, store: false, include: [SEALED] });
    expect(answer.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    expect((answer.output[0] as { encrypted_content?: string }).encrypted_content).toMatch(/^gAAAA/);
    return [...input, ...(answer.output as Item[])];
  }

  /** A follow-up as Codex sends it: no previous_response_id, the history in input, a session of its own. */
  const followUp = (key: string, history: Item[], i: number) =>
    f.openai(key).responses.create({ model: 'sealed', input: [...history, { role: 'user', content: `Next step ${i}` }], store: false, include: [SEALED], prompt_cache_key: `session-${i}-${Math.random()}` });

  async function setStatus(which: 'A' | 'B', status: number) {
    await f.root.put('/api/channel/', { id: channelOf.get(which), status });
    await relayState(f.server.ctx).selector.reload();
  }

  it('ten stateless follow-ups carrying encrypted reasoning from channel A all reach A', async () => {
    const { key } = await f.newUser({ quota: 10_000_000 });
    const history = await firstTurn(key, 'sealed-a', 'Fix the flaky build.');
    const [a, b] = [onA().length, onB().length];
    for (let i = 0; i < 10; i++) {
      const answer = await followUp(key, history, i);
      expect(answer.status).toBe('completed');
    }
    expect(onA().length - a).toBe(10);
    expect(onB().length).toBe(b);
  });

  it('with channel A disabled the follow-up is a 409 naming the item; channel B never sees it', async () => {
    const { key } = await f.newUser({ quota: 10_000_000 });
    const history = await firstTurn(key, 'sealed-a', 'Refactor the parser.');
    const reasoningId = (history[1] as { id: string }).id;
    const b = onB().length;
    await setStatus('A', 2);
    try {
      for (let i = 0; i < 3; i++) {
        const refused = await followUp(key, history, i).catch((e) => e);
        expect(refused.status).toBe(409);
        expect(refused.error).toMatchObject({ type: 'invalid_request_error', code: 'encrypted_content_channel_unavailable' });
        expect(refused.message).toContain(`input item ${reasoningId} carries encrypted content produced by a channel that is no longer available`);
      }
      expect(onB().length).toBe(b);
    } finally {
      await setStatus('A', 1);
    }
  });

  it('a compaction item goes back to the channel that compacted, for a follow-up and for the next compaction', async () => {
    const { key } = await f.newUser({ quota: 10_000_000 });
    const client = f.openai(key);
    const compacted = await client.responses.compact({ model: 'sealed-a', input: [{ role: 'user', content: 'Long conversation' }, { role: 'assistant', content: 'Long answer' }] });
    expect(compacted.output.at(-1)).toMatchObject({ type: 'compaction', encrypted_content: expect.stringMatching(/^gAAAA/) });
    const history = compacted.output as Item[];
    const [a, b] = [onA().length, onB().length];
    for (let i = 0; i < 6; i++) await followUp(key, history, i);
    for (let i = 0; i < 4; i++) await client.responses.compact({ model: 'sealed', input: [...history, { role: 'user', content: `More ${i}` }], prompt_cache_key: `compact-${i}-${Math.random()}` } as never);
    expect(onA().length - a).toBe(10);
    expect(onA().slice(-4).map((r) => r.path)).toEqual(Array(4).fill('/v1/responses/compact'));
    expect(onB().length).toBe(b);

    await setStatus('A', 2);
    try {
      const refused = await followUp(key, history, 99).catch((e) => e);
      expect(refused.status).toBe(409);
      expect(refused.error).toMatchObject({ code: 'encrypted_content_channel_unavailable' });
      expect(refused.message).toContain('input item cmp_item_fake');
      expect(onB().length).toBe(b);
    } finally {
      await setStatus('A', 1);
    }
  });

  it('items of a streamed answer and of a WebSocket turn are remembered too', async () => {
    const { key } = await f.newUser({ quota: 10_000_000 });
    const client = f.openai(key);
    const stream = await client.responses.create({ model: 'sealed-a', input: 'Streamed', store: false, include: [SEALED], stream: true });
    let streamed: Item[] = [];
    for await (const event of stream) if (event.type === 'response.output_item.done' && event.item.type === 'reasoning') streamed = [event.item as Item];
    expect(streamed).toHaveLength(1);

    const ws = new ResponsesWS(client);
    ws.on('error', () => {});
    const wsItems: Item[] = [];
    await new Promise<void>((resolve) => {
      ws.on('event', (event) => {
        if (event.type === 'response.output_item.done' && event.item.type === 'reasoning') wsItems.push(event.item as Item);
        if (event.type === 'response.completed') resolve();
      });
      ws.send({ type: 'response.create', model: 'sealed-a', input: 'Over the socket', store: false, include: [SEALED] } as never);
    });
    ws.close();
    expect(wsItems).toHaveLength(1);

    const [a, b] = [onA().length, onB().length];
    for (let i = 0; i < 5; i++) await followUp(key, streamed, i);
    for (let i = 0; i < 5; i++) await followUp(key, wsItems, 10 + i);
    expect(onA().length - a).toBe(10);
    expect(onB().length).toBe(b);
  });

  it('items of a background response are remembered when it ends', async () => {
    const { key } = await f.newUser({ quota: 10_000_000 });
    const client = f.openai(key);
    const queued = await client.responses.create({ model: 'sealed-a', input: 'In the background', background: true, include: [SEALED] });
    let done = await client.responses.retrieve(queued.id);
    for (let read = 0; read < 5 && (done.status === 'queued' || done.status === 'in_progress'); read++) done = await client.responses.retrieve(queued.id);
    expect(done.status).toBe('completed');
    expect(done.output[0]).toMatchObject({ type: 'reasoning', encrypted_content: expect.stringMatching(/^gAAAA/) });
    const [a, b] = [onA().length, onB().length];
    for (let i = 0; i < 6; i++) await followUp(key, done.output as Item[], i);
    expect(onA().length - a).toBe(6);
    expect(onB().length).toBe(b);
  });

  it('a conversation moved to a model channel A does not serve routes as any request (even with A disabled)', async () => {
    const { key } = await f.newUser({ quota: 10_000_000 });
    const history = await firstTurn(key, 'sealed-a', 'Start on GPT');
    const [a, claude] = [onA().length, f.claude.received.length];
    const moved = await f.openai(key).responses.create({ model: 'sealed-claude', input: [...history, { role: 'user', content: 'Go on' }], store: false });
    expect(moved.status).toBe('completed');
    expect(f.claude.received.length).toBe(claude + 1);
    await setStatus('A', 2);
    try {
      const again = await f.openai(key).responses.create({ model: 'sealed-claude', input: [...history, { role: 'user', content: 'And on' }], store: false });
      expect(again.status).toBe('completed');
    } finally {
      await setStatus('A', 1);
    }
    expect(onA().length).toBe(a);
    expect(f.claude.received.length).toBe(claude + 2);
  });

  it("another user's copy of the item is unknown: routed as today, not pinned to A", async () => {
    const owner = await f.newUser({ quota: 10_000_000 });
    const stranger = await f.newUser({ quota: 10_000_000 });
    const history = await firstTurn(owner.key, 'sealed-a', 'Private reasoning');
    await setStatus('A', 2);
    try {
      const b = onB().length;
      // Not refused by the gateway: it goes to B, whose upstream cannot read A's item (as the real API answers).
      const routed = await followUp(stranger.key, history, 1).catch((e) => e);
      expect(routed.status).toBe(400);
      expect(routed.error).toMatchObject({ code: 'invalid_encrypted_content' });
      expect(onB().length).toBe(b + 1);
      // The owner's own follow-up is still refused.
      expect((await followUp(owner.key, history, 2).catch((e) => e)).status).toBe(409);
    } finally {
      await setStatus('A', 1);
    }
  });

  it('items from two different channels in one input are a 400 saying so; nothing reaches upstream', async () => {
    const { key } = await f.newUser({ quota: 10_000_000 });
    const fromA = await firstTurn(key, 'sealed-a', 'On A');
    const fromB = await firstTurn(key, 'sealed-b', 'On B');
    const [a, b] = [onA().length, onB().length];
    const mixed = await followUp(key, [...fromA, ...fromB], 1).catch((e) => e);
    expect(mixed.status).toBe(400);
    expect(mixed.error).toMatchObject({ type: 'invalid_request_error', code: 'mixed_encrypted_content' });
    expect(mixed.message).toContain('produced by different channels');
    expect([onA().length, onB().length]).toEqual([a, b]);
  });

  it('unknown encrypted items (produced outside the gateway) are routed as today', async () => {
    const { key } = await f.newUser({ quota: 10_000_000 });
    const [a, b] = [onA().length, onB().length];
    const foreign: Item = { type: 'reasoning', id: 'rs_elsewhere', summary: [], encrypted_content: 'gAAAAnot-from-here' };
    for (let i = 0; i < 12; i++) await followUp(key, [foreign], i).catch((e) => e);
    // Both channels were tried (their upstreams cannot read it, which is for the client to learn).
    expect(onA().length - a).toBeGreaterThan(0);
    expect(onB().length - b).toBeGreaterThan(0);
    expect(onA().length - a + onB().length - b).toBe(12);
  });
});
