import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects } from '../harness.js';
import { relayState } from '../../src/relay/state.js';
import { backgroundPoller } from '../../src/relay/responses/background.js';
import { interactionKey } from '../../src/relay/responses/owners.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const ANSWER = 'Hello from the fake Gemini';

/** Charges and log rows written, every lease's free part back (of the server running now). */
async function flush(f: DoorFixture): Promise<void> {
  await relayState(f.server.ctx).recorder.flush();
  await relayState(f.server.ctx).leases.settleUp();
}

async function balance(f: DoorFixture, userId: number): Promise<number> {
  await flush(f);
  return Number((await f.server.ctx.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota);
}

async function consumeLogs(f: DoorFixture, userId: number) {
  await flush(f);
  return f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).orderBy('id').execute();
}

const bgRow = (f: DoorFixture, id: string) => f.server.ctx.db.selectFrom('background_responses').selectAll().where('id', '=', interactionKey(id)).executeTakeFirst();
const poll = (f: DoorFixture) => backgroundPoller(relayState(f.server.ctx)).runNow();
const calls = (f: DoorFixture) => f.gemini.received.filter((r) => r.path.includes('/interactions'));

/**
 * Issue 36: background and agent interactions on a Gemini channel, through `@google/genai`'s
 * interactions API. The worst case is charged when upstream accepts the interaction; the
 * master node's poller (run here by hand) reads it until it ends and settles from its usage,
 * exactly once, whoever sees the end first.
 */
describe.each(testDialects())('background Gemini interactions on %s', (dialect) => {
  let f: DoorFixture;
  beforeAll(async () => {
    // Polling rounds are run by the tests, one at a time.
    f = await doorFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    await f.unitPrice('gxb-model');
    // The agent is priced per call.
    await f.server.ctx.db.insertInto('prices').values({ model: 'deep-research-x', type: 'times', channel_type: 1, input: 0.5, output: 0.5 }).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    await f.addChannel({ type: 25, key: 'gxb-key', base_url: f.gemini.url, models: 'gxb-model,deep-research-x,deep-research-unpriced', model_mapping: JSON.stringify({ 'gxb-model': '+gemini-2.5-flash' }) });
  });
  afterAll(async () => f?.close());

  it('holds the worst case, answers in_progress and settles from the reported usage when the poller sees it end, though the client never asks again', async () => {
    f.gemini.behave('gxb-key', { backgroundReads: 1 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const created = await f.genai(key).interactions.create({ model: 'gxb-model', input: 'Tell me a story', background: true });
    expect(created.status).toBe('in_progress');
    expect(calls(f).at(-1)!.body).toEqual({ model: 'gemini-2.5-flash', input: 'Tell me a story', background: true });
    const held = start - (await balance(f, userId));
    expect(held).toBeGreaterThan(9);
    expect(await bgRow(f, created.id)).toMatchObject({ kind: 'interaction', status: 'pending', held });
    expect(await consumeLogs(f, userId)).toHaveLength(0);

    await poll(f); // still in_progress
    expect((await bgRow(f, created.id))!.status).toBe('pending');
    await poll(f); // completed
    expect(await bgRow(f, created.id)).toMatchObject({ status: 'completed', billed: 9 });
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ model_name: 'gxb-model', prompt_tokens: 4, completion_tokens: 5, quota: 9 });
    expect(JSON.parse(logs[0].metadata!)).toMatchObject({ door: '/v1beta/interactions', background: true, interaction_id: created.id, interaction_status: 'completed', usage_source: 'reported' });
    expect(start - (await balance(f, userId))).toBe(9);

    // Later polls and retrieves change nothing.
    expect((await poll(f)).tasks).toBe(0);
    expect(await f.genai(key).interactions.get(created.id)).toMatchObject({ status: 'completed', output_text: ANSWER });
    expect(start - (await balance(f, userId))).toBe(9);
    expect(await consumeLogs(f, userId)).toHaveLength(1);
  });

  it('settles once when the client polls: its retrieve that sees the end settles, the poller finds nothing left', async () => {
    f.gemini.behave('gxb-key', { backgroundReads: 2, content: 'a b c' });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const client = f.genai(key);
    const created = await client.interactions.create({ model: 'gxb-model', input: 'poll me', background: true });
    let got = await client.interactions.get(created.id);
    let reads = 1;
    while (got.status === 'in_progress') {
      expect((await bgRow(f, created.id))!.status).toBe('pending');
      got = await client.interactions.get(created.id);
      reads++;
    }
    expect(reads).toBe(3);
    expect(got.status).toBe('completed');
    expect((await bgRow(f, created.id))!.status).toBe('completed');
    expect((await poll(f)).tasks).toBe(0);
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ prompt_tokens: 2, completion_tokens: 3, quota: 5 });
    expect(start - (await balance(f, userId))).toBe(5);
  });

  it('cancel releases the hold: cancelled without usage is billed nothing, and the poller leaves it', async () => {
    f.gemini.behave('gxb-key', { backgroundReads: 10 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const client = f.genai(key);
    const created = await client.interactions.create({ model: 'gxb-model', input: 'never mind', background: true });
    expect(start - (await balance(f, userId))).toBeGreaterThan(0);
    const cancelled = await client.interactions.cancel(created.id);
    expect(cancelled.status).toBe('cancelled');
    expect(calls(f).at(-1)).toMatchObject({ method: 'POST', path: `/v1beta/interactions/${created.id}/cancel` });
    expect(await bgRow(f, created.id)).toMatchObject({ status: 'cancelled', billed: 0 });
    expect(await balance(f, userId)).toBe(start);
    expect((await poll(f)).tasks).toBe(0);
    expect(await consumeLogs(f, userId)).toHaveLength(0);
  });

  it('ends a running interaction before deleting it: cancelled upstream, billed as upstream reports', async () => {
    f.gemini.behave('gxb-key', { backgroundReads: 10 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const client = f.genai(key);
    const created = await client.interactions.create({ model: 'gxb-model', input: 'drop it', background: true });
    await client.interactions.delete(created.id);
    expect(calls(f).slice(-3).map((c) => c.method)).toEqual(['GET', 'POST', 'DELETE']);
    expect(await bgRow(f, created.id)).toMatchObject({ status: 'cancelled' });
    expect(await balance(f, userId)).toBe(start);
    expect(await consumeLogs(f, userId)).toHaveLength(0);
  });

  it("answers another user's background interaction with a 404 for get and cancel, reaching nothing upstream, and it still settles for its owner", async () => {
    f.gemini.behave('gxb-key', { backgroundReads: 0 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const { key: other } = await f.newUser({ quota: 5_000_000 });
    const created = await f.genai(key).interactions.create({ model: 'gxb-model', input: 'mine alone', background: true });
    const seen = calls(f).length;
    const stranger = f.genai(other);
    for (const call of [() => stranger.interactions.get(created.id), () => stranger.interactions.cancel(created.id)]) {
      const e: any = await call().catch((err) => err);
      expect(e.status).toBe(404);
    }
    expect(calls(f).length).toBe(seen);
    expect((await bgRow(f, created.id))!.status).toBe('pending');
    await poll(f);
    expect((await bgRow(f, created.id))!.status).toBe('completed');
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ prompt_tokens: 2, completion_tokens: 5 });
  });

  it('serves an agent interaction (agent, no model) priced per call under the agent name, held and settled once', async () => {
    f.gemini.behave('gxb-key', { backgroundReads: 0, content: 'a long research report' });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const created = await f.genai(key).interactions.create({ agent: 'deep-research-x', input: 'research this', background: true } as any);
    expect(created.status).toBe('in_progress');
    expect(calls(f).at(-1)!.body).toEqual({ agent: 'deep-research-x', input: 'research this', background: true });
    const held = start - (await balance(f, userId));
    expect(held).toBeGreaterThan(0);
    await poll(f);
    const row = await bgRow(f, created.id);
    expect(row).toMatchObject({ status: 'completed' });
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ model_name: 'deep-research-x', prompt_tokens: 2, completion_tokens: 4 });
    expect(logs[0].quota).toBeGreaterThan(0);
    expect(logs[0].quota).toBe(start - (await balance(f, userId)));
    expect(Number(row!.billed)).toBe(logs[0].quota);
    expect(JSON.parse(logs[0].metadata!)).toMatchObject({ price_type: 'times', interaction_id: created.id });
  });

  it('refuses an agent without a price as an unknown model, and a body naming neither model nor agent, with a 4xx and no upstream call', async () => {
    const { key } = await f.newUser({ quota: 5_000_000 });
    const seen = calls(f).length;
    const post = (body: unknown) => fetch(`${f.url}/v1beta/interactions`, { method: 'POST', headers: { 'x-goog-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const unpriced = await post({ agent: 'deep-research-unpriced', input: 'research', background: true });
    expect(unpriced.status).toBe(404);
    expect((await unpriced.json()).error).toMatchObject({ status: 'NOT_FOUND', message: expect.stringContaining("agent 'deep-research-unpriced' does not exist") });
    const neither = await post({ input: 'who answers?' });
    expect(neither.status).toBe(400);
    expect((await neither.json()).error).toMatchObject({ code: 400, message: expect.stringContaining('model is required') });
    expect(calls(f).length).toBe(seen);
  });

  it("counts a settled background interaction's tokens in the token's TPM window: one that fills it refuses the next turn", async () => {
    const limits = relayState(f.server.ctx).limits;
    const realNow = limits.now;
    limits.now = () => Date.UTC(2026, 5, 10, 12, 0, 30); // one mid-minute instant: settlement and the next turn share the window
    try {
      f.gemini.behave('gxb-key', { backgroundReads: 0 });
      const { key, tokenId } = await f.newUser({ quota: 5_000_000, token: { setting: { limits: { request_limits: { tpm: 8 } } } } });
      const client = f.genai(key);
      await client.interactions.create({ model: 'gxb-model', input: 'fill the minute', background: true });
      expect(await limits.tokensThisMinute(`t${tokenId}`)).toBe(0);
      await poll(f);
      expect(await limits.tokensThisMinute(`t${tokenId}`)).toBe(8);
      const seen = calls(f).length;
      // Raw fetch: the SDK would retry a 429 after its Retry-After.
      const refused = await fetch(`${f.url}/v1beta/interactions`, { method: 'POST', headers: { 'x-goog-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gxb-model', input: 'one more' }) });
      expect(refused.status).toBe(429);
      expect((await refused.json()).error).toMatchObject({ status: 'RESOURCE_EXHAUSTED', message: expect.stringContaining('8 tokens per minute (TPM)') });
      expect(calls(f).length).toBe(seen);
    } finally {
      limits.now = realNow;
    }
  });

  it('a new server on the same database resumes polling the pending interaction and settles it once', async () => {
    f.gemini.behave('gxb-key', { backgroundReads: 0 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const created = await f.genai(key).interactions.create({ model: 'gxb-model', input: 'survive the restart', background: true });
    const first = f.server;
    await first.close();
    f.server = await startTestServer(dialect, { reuse: first, env: { TASK_POLL_INTERVAL_MS: '600000' } });
    // Its start-up round may be running: runNow waits for it, then polls again (nothing is left).
    await poll(f);
    const row = await bgRow(f, created.id);
    expect(row).toMatchObject({ status: 'completed' });
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, quota: 8 });
    expect(start - (await balance(f, userId))).toBe(8);
    expect(Number(row!.billed)).toBe(8);
  });
});
