import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';
import { backgroundPoller } from '../../src/relay/responses/background.js';
import { flushResponseOwners } from '../../src/relay/responses/owners.js';

/** Charges and log rows written, every lease's free part back (of the server running now: a restart replaces it). */
async function flush(f: DoorFixture): Promise<void> {
  await relayState(f.server.ctx).recorder.flush();
  await relayState(f.server.ctx).leases.settleUp();
}

/** Quota columns are exact once charges are written and every lease's free part is back. */
async function balance(f: DoorFixture, userId: number): Promise<number> {
  await flush(f);
  const row = await f.server.ctx.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.quota);
}

async function consumeLogs(f: DoorFixture, userId: number) {
  await flush(f);
  return f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).orderBy('id').execute();
}

async function bgRow(f: DoorFixture, id: string) {
  return f.server.ctx.db.selectFrom('background_responses').selectAll().where('id', '=', id).executeTakeFirst();
}

const poll = (f: DoorFixture) => backgroundPoller(relayState(f.server.ctx)).runNow();

/** Server-sent events of a response as `{type, sequence_number}` pairs. */
async function sseEvents(res: Response): Promise<Array<Record<string, any>>> {
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));
}

describe.each(testDialects())('background responses on %s', (dialect) => {
  let f: DoorFixture;
  beforeAll(async () => {
    // Polling rounds are run by the tests, one at a time.
    f = await doorFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    for (const m of ['bg-openai', 'bg-claude', 'bg-gemini']) await f.unitPrice(m);
    await f.addChannel({ type: 1, key: 'bg-openai-key', models: 'bg-openai' });
    await f.addChannel({ type: 14, key: 'bg-claude-key', base_url: f.claude.url, models: 'bg-claude' });
    await f.addChannel({ type: 25, key: 'bg-gemini-key', base_url: f.gemini.url, models: 'bg-gemini', model_mapping: JSON.stringify({ 'bg-gemini': 'gemini-2.5-pro' }) });
  });
  afterAll(async () => f?.close());

  it('holds the worst case, answers upstream’s queued response and settles from the final usage when the poller sees it end, though the client never asks again', async () => {
    f.fake.behave('bg-openai-key', { content: 'one two three four', backgroundReads: 2 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const created = await f.openai(key).responses.create({ model: 'bg-openai', input: 'Run this later', background: true, max_output_tokens: 2000 });
    expect(created).toMatchObject({ status: 'queued', background: true });
    expect(f.fake.kept.has(created.id)).toBe(true);
    const held = start - (await balance(f, userId));
    expect(held).toBeGreaterThan(0);
    expect(await bgRow(f, created.id)).toMatchObject({ status: 'pending', held });
    expect(await consumeLogs(f, userId)).toHaveLength(0);

    await poll(f); // in_progress
    expect((await bgRow(f, created.id))!.status).toBe('pending');
    await poll(f); // completed
    expect(await bgRow(f, created.id)).toMatchObject({ status: 'completed' });
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ prompt_tokens: 9, completion_tokens: 4 });
    const charged = start - (await balance(f, userId));
    expect(logs[0].quota).toBe(charged);
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThan(held);
    expect(JSON.parse(logs[0].metadata ?? '{}')).toMatchObject({ background: true, response_id: created.id });

    // Later polls and retrieves change nothing.
    await poll(f);
    expect(await f.openai(key).responses.retrieve(created.id)).toMatchObject({ status: 'completed', output_text: 'one two three four' });
    expect(start - (await balance(f, userId))).toBe(charged);
    expect(await consumeLogs(f, userId)).toHaveLength(1);
  });

  it('settles once when the client polls too: its retrieve that sees the end settles, the poller finds nothing left', async () => {
    f.fake.behave('bg-openai-key', { content: 'a b', backgroundReads: 2 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const client = f.openai(key);
    const created = await client.responses.create({ model: 'bg-openai', input: 'poll me', background: true });
    let got = await client.responses.retrieve(created.id);
    while (got.status === 'queued' || got.status === 'in_progress') got = await client.responses.retrieve(created.id);
    expect(got.status).toBe('completed');
    expect((await bgRow(f, created.id))!.status).toBe('completed');
    const round = await poll(f);
    expect(round.tasks).toBe(0);
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0].quota).toBe(start - (await balance(f, userId)));
    expect(logs[0].completion_tokens).toBe(2);
  });

  it('gives a limited token back what it was charged above the usage, as the balance', async () => {
    f.fake.behave('bg-openai-key', { content: 'token paid', backgroundReads: 1 });
    const { userId, key, tokenId } = await f.newUser({ quota: 5_000_000, token: { unlimited_quota: false, remain_quota: 1_000_000 } });
    const remain = async () => {
      await flush(f);
      return Number((await f.server.ctx.db.selectFrom('tokens').select('remain_quota').where('id', '=', tokenId).executeTakeFirstOrThrow()).remain_quota);
    };
    const [start, startRemain] = [await balance(f, userId), await remain()];
    await f.openai(key).responses.create({ model: 'bg-openai', input: 'on a limited token', background: true });
    expect(await remain()).toBeLessThan(startRemain);
    await poll(f);
    const [log] = await consumeLogs(f, userId);
    expect(log.quota).toBeGreaterThan(0);
    expect(startRemain - (await remain())).toBe(log.quota);
    expect(start - (await balance(f, userId))).toBe(log.quota);
  });

  it("counts a finished background response's tokens in the token's TPM window: one that fills it refuses the next request", async () => {
    const limits = relayState(f.server.ctx).limits;
    const realNow = limits.now;
    // One fixed mid-minute instant, so the settlement and the next request share the TPM window.
    const at = Date.UTC(2026, 5, 10, 12, 0, 30);
    limits.now = () => at;
    try {
      f.fake.behave('bg-openai-key', { content: 'one two three four five six seven eight nine ten eleven twelve', backgroundReads: 1 });
      const { userId, key, tokenId } = await f.newUser({ quota: 5_000_000, token: { setting: { limits: { request_limits: { tpm: 20 } } } } });
      const client = f.openai(key);
      const created = await client.responses.create({ model: 'bg-openai', input: 'fill my minute', background: true, max_output_tokens: 500 });
      // While it runs nothing is counted: its worst case is not kept against the window.
      expect(await limits.tokensThisMinute(`t${tokenId}`)).toBe(0);
      await poll(f);
      expect((await bgRow(f, created.id))!.status).toBe('completed');
      const [log] = await consumeLogs(f, userId);
      expect(log).toMatchObject({ prompt_tokens: 9, completion_tokens: 12 });
      expect(await limits.tokensThisMinute(`t${tokenId}`)).toBe(21);
      const calls = f.fake.forKey('bg-openai-key').length;
      const err = await client.responses.create({ model: 'bg-openai', input: 'one more' }).catch((e) => e);
      expect(err.status).toBe(429);
      expect(err.error).toMatchObject({ code: 'tpm_limit_exceeded' });
      expect(err.error.message).toContain('20 tokens per minute (TPM), 21 used or held');
      expect(f.fake.forKey('bg-openai-key').length).toBe(calls);
    } finally {
      limits.now = realNow;
    }
  });

  it('holds on a plan window that covers the model and settles it there: the window is spent the usage, the balance nothing', async () => {
    f.fake.behave('bg-openai-key', { content: 'plan paid', backgroundReads: 1 });
    await f.unitPrice('bg-plan');
    await f.addChannel({ type: 1, key: 'bg-openai-key', models: 'bg-plan' });
    const made = await f.root.post('/api/plan/', { name: 'BG', price: 1, currency: 'USD', duration_kind: 'month', duration_count: 1, window_kind: '5h', window_quota: 1_000_000, models: ['bg-plan'] });
    expect(made.body.success).toBe(true);
    const { userId, key, client } = await f.newUser({ quota: 5_000_000 });
    expect((await f.root.post('/api/plan/grant', { user_id: userId, plan_id: made.body.data.id })).body.success).toBe(true);
    const start = await balance(f, userId);
    const used = async () => ((await client.get('/api/plan/self')).body.data.subscriptions[0].window_used as number);
    await f.openai(key).responses.create({ model: 'bg-plan', input: 'paid by the plan', background: true, max_output_tokens: 500 });
    const held = await used();
    expect(held).toBeGreaterThan(0);
    await poll(f);
    const [log] = await consumeLogs(f, userId);
    const meta = JSON.parse(log.metadata ?? '{}');
    expect(log.quota).toBe(0);
    expect(meta.plan_quota).toBeGreaterThan(0);
    expect(meta.plan_quota).toBeLessThan(held);
    expect(await used()).toBe(meta.plan_quota);
    expect(await balance(f, userId)).toBe(start);
  });

  it('gives the whole hold back when the response fails, and logs no charge', async () => {
    f.fake.behave('bg-openai-key', { backgroundFails: true, backgroundReads: 1 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const created = await f.openai(key).responses.create({ model: 'bg-openai', input: 'fail', background: true });
    expect(await balance(f, userId)).toBeLessThan(start);
    await poll(f);
    expect(await bgRow(f, created.id)).toMatchObject({ status: 'failed', billed: 0 });
    expect(await balance(f, userId)).toBe(start);
    expect(await consumeLogs(f, userId)).toHaveLength(0);
  });

  it('forwards cancel and settles as upstream reports it: the usage so far, or nothing', async () => {
    f.fake.behave('bg-openai-key', { backgroundReads: 5, cancelUsage: { prompt: 9, completion: 3 } });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const client = f.openai(key);
    const start = await balance(f, userId);
    const queued = await client.responses.create({ model: 'bg-openai', input: 'stop me early', background: true });
    const cancelled = await client.responses.cancel(queued.id);
    expect(cancelled).toMatchObject({ id: queued.id, status: 'cancelled' });
    expect(f.fake.received.at(-1)).toMatchObject({ path: `/v1/responses/${queued.id}/cancel` });
    expect(await bgRow(f, queued.id)).toMatchObject({ status: 'cancelled', billed: 0 });
    expect(await balance(f, userId)).toBe(start);

    const running = await client.responses.create({ model: 'bg-openai', input: 'stop me later', background: true });
    expect((await client.responses.retrieve(running.id)).status).toBe('in_progress');
    await client.responses.cancel(running.id);
    // Cancelling again answers the ended response as it is, and charges nothing more.
    expect(await client.responses.cancel(running.id)).toMatchObject({ status: 'cancelled' });
    await poll(f);
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ prompt_tokens: 9, completion_tokens: 3 });
    expect(logs[0].quota).toBe(start - (await balance(f, userId)));
  });

  it('ends a running response before deleting it: cancelled upstream and billed as upstream reports, not at the hold', async () => {
    f.fake.behave('bg-openai-key', { backgroundReads: 5, cancelUsage: { prompt: 9, completion: 2 } });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const client = f.openai(key);
    const start = await balance(f, userId);
    const created = await client.responses.create({ model: 'bg-openai', input: 'delete me', background: true });
    expect((await client.responses.retrieve(created.id)).status).toBe('in_progress');
    await client.responses.delete(created.id);
    expect(f.fake.received.slice(-3).map((r) => r.path)).toEqual([`/v1/responses/${created.id}`, `/v1/responses/${created.id}/cancel`, `/v1/responses/${created.id}`]);
    expect(f.fake.kept.has(created.id)).toBe(false);
    expect(await bgRow(f, created.id)).toMatchObject({ status: 'cancelled' });
    await poll(f);
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ prompt_tokens: 9, completion_tokens: 2 });
    expect(logs[0].quota).toBe(start - (await balance(f, userId)));
  });

  it("answers another user's background id with a 404 and reaches nothing upstream", async () => {
    f.fake.behave('bg-openai-key', { backgroundReads: 2 });
    const { key } = await f.newUser({ quota: 5_000_000 });
    const { key: other } = await f.newUser({ quota: 5_000_000 });
    const created = await f.openai(key).responses.create({ model: 'bg-openai', input: 'mine', background: true });
    const local = await f.openai(key).responses.create({ model: 'bg-claude', input: 'mine too', background: true });
    const seen = f.fake.received.length;
    for (const id of [created.id, local.id]) {
      for (const call of [() => f.openai(other).responses.retrieve(id), () => f.openai(other).responses.cancel(id)]) {
        expect((await call().catch((e) => e)).status).toBe(404);
      }
      const streamed = await fetch(`${f.url}/v1/responses/${id}?stream=true&starting_after=0`, { headers: { authorization: `Bearer ${other}` } });
      expect(streamed.status).toBe(404);
    }
    expect(f.fake.received.length).toBe(seen);
    await relayLocalEnd(f, key, local.id);
  });

  it('passes a resumable stream of an OpenAI background response through: events after starting_after', async () => {
    f.fake.behave('bg-openai-key', { content: 'x y z' });
    const { key } = await f.newUser({ quota: 5_000_000 });
    const stream = await f.openai(key).responses.create({ model: 'bg-openai', input: 'stream it', background: true, stream: true });
    let id = '';
    const seqs: number[] = [];
    for await (const event of stream) {
      seqs.push(event.sequence_number);
      if (event.type === 'response.created') id = event.response.id;
    }
    await flushResponseOwners(f.server.ctx);
    const res = await fetch(`${f.url}/v1/responses/${id}?stream=true&starting_after=3`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await sseEvents(res);
    expect(events.map((e) => e.sequence_number)).toEqual(seqs.filter((s) => s > 3));
    expect(events.at(-1)).toMatchObject({ type: 'response.completed' });
    expect(f.fake.received.at(-1)!.path).toBe(`/v1/responses/${id}`);
  });

  it('runs a background request for a converted (Anthropic) channel itself: queued at once under its own id, in_progress, then completed with output, billed once', async () => {
    f.claude.behave('bg-claude-key', { content: 'Done by the gateway in the background', chunkDelayMs: 40 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const client = f.openai(key);
    const start = await balance(f, userId);
    const created = await client.responses.create({ model: 'bg-claude', input: 'Work on it', background: true });
    expect(created).toMatchObject({ object: 'response', status: 'queued', background: true, model: 'bg-claude' });
    expect(created.id).toMatch(/^resp_bg/);
    const seen = new Set<string>();
    let got = await client.responses.retrieve(created.id);
    while (got.status === 'queued' || got.status === 'in_progress') {
      seen.add(got.status);
      await new Promise((r) => setTimeout(r, 20));
      got = await client.responses.retrieve(created.id);
    }
    expect(seen.has('in_progress')).toBe(true);
    expect(got).toMatchObject({ id: created.id, status: 'completed', background: true });
    expect(got.output_text).toBe('Done by the gateway in the background');

    // The stored events replay after a sequence number, with this id throughout.
    const all = await sseEvents(await fetch(`${f.url}/v1/responses/${created.id}?stream=true`, { headers: { authorization: `Bearer ${key}` } }));
    expect(all.map((e) => e.sequence_number)).toEqual(all.map((_, i) => i));
    expect(all[0]).toMatchObject({ type: 'response.created', response: { id: created.id } });
    expect(all.at(-1)).toMatchObject({ type: 'response.completed', response: { id: created.id, status: 'completed' } });
    const tail = await sseEvents(await fetch(`${f.url}/v1/responses/${created.id}?stream=true&starting_after=2`, { headers: { authorization: `Bearer ${key}` } }));
    expect(tail).toEqual(all.slice(3));

    // Billed as the request it ran: one log row, equal to what left the balance.
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0].quota).toBe(start - (await balance(f, userId)));
    expect(logs[0].quota).toBeGreaterThan(0);

    // Its conversation continues under the gateway's id.
    const items = await client.responses.inputItems.list(created.id);
    expect(items.data).toHaveLength(1);
    f.claude.behave('bg-claude-key', { content: 'Follow-up' });
    const next = await client.responses.create({ model: 'bg-claude', input: 'and then?', previous_response_id: created.id });
    expect(next.output_text).toBe('Follow-up');
    const sent = f.claude.received.at(-1)!.body;
    expect(JSON.stringify(sent.messages)).toContain('Done by the gateway in the background');
  });

  it('runs one for a Gemini channel the same way', async () => {
    f.gemini.behave('bg-gemini-key', { content: 'Gemini in the background' });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const created = await f.openai(key).responses.create({ model: 'bg-gemini', input: 'Go', background: true });
    expect(created).toMatchObject({ status: 'queued', background: true });
    await relayLocalEnd(f, key, created.id);
    const got = await f.openai(key).responses.retrieve(created.id);
    expect(got).toMatchObject({ id: created.id, status: 'completed' });
    expect(got.output_text).toBe('Gemini in the background');
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0].quota).toBe(start - (await balance(f, userId)));
  });

  it('cancels a run of its own: the run stops, the response reads cancelled', async () => {
    f.claude.behave('bg-claude-key', { content: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '), chunkDelayMs: 50 });
    const { key } = await f.newUser({ quota: 5_000_000 });
    const client = f.openai(key);
    const created = await client.responses.create({ model: 'bg-claude', input: 'long', background: true });
    let got = await client.responses.retrieve(created.id);
    while (got.status !== 'in_progress') got = await client.responses.retrieve(created.id);
    const cancelled = await client.responses.cancel(created.id);
    expect(cancelled).toMatchObject({ id: created.id, status: 'cancelled' });
    expect((await client.responses.retrieve(created.id)).status).toBe('cancelled');
    expect((await bgRow(f, created.id))!.status).toBe('cancelled');
  });
});

/** Waits for a run of the gateway's own to end (so nothing is left running when the suite closes). */
async function relayLocalEnd(f: DoorFixture, key: string, id: string): Promise<void> {
  let got = await f.openai(key).responses.retrieve(id);
  while (got.status === 'queued' || got.status === 'in_progress') {
    await new Promise((r) => setTimeout(r, 20));
    got = await f.openai(key).responses.retrieve(id);
  }
}

describe.each(testDialects())('background responses across a restart on %s', (dialect) => {
  let f: DoorFixture;
  beforeAll(async () => {
    f = await doorFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    await f.unitPrice('bg-restart');
    await f.addChannel({ type: 1, key: 'bg-restart-key', models: 'bg-restart' });
  });
  afterAll(async () => f?.close());

  it('a new server on the same database resumes polling the pending response and settles it once', async () => {
    f.fake.behave('bg-restart-key', { content: 'after the restart', backgroundReads: 1 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const created = await f.openai(key).responses.create({ model: 'bg-restart', input: 'survive it', background: true });
    const first = f.server;
    await first.close();
    const next = await startTestServer(dialect, { reuse: first, env: { TASK_POLL_INTERVAL_MS: '600000' } });
    f.server = next;
    // Its start-up round may be running: runNow waits for it, then polls again (nothing is left).
    await poll(f);
    const row = await bgRow(f, created.id);
    expect(row).toMatchObject({ status: 'completed' });
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ completion_tokens: 3 });
    expect(logs[0].quota).toBe(start - (await balance(f, userId)));
    expect(Number(row!.billed)).toBe(logs[0].quota);
  });
});

describe.each(testDialects())('background responses on two nodes on %s' + (redisAvailable() ? ' with redis' : ''), (dialect) => {
  let f: DoorFixture;
  let second: TestServer;
  let secondUrl: string;
  const shared: Record<string, string> = REDIS_URL ? { REDIS_CONN_STRING: REDIS_URL, REDIS_KEY_PREFIX: `test:bg${Date.now()}:` } : {};
  beforeAll(async () => {
    f = await doorFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000', ...shared });
    await f.unitPrice('bg-nodes');
    await f.unitPrice('bg-nodes-claude');
    await f.addChannel({ type: 1, key: 'bg-nodes-key', models: 'bg-nodes' });
    await f.addChannel({ type: 14, key: 'bg-nodes-claude-key', base_url: f.claude.url, models: 'bg-nodes-claude' });
    second = await startTestServer(dialect, { reuse: f.server });
    secondUrl = await second.listen();
  });
  afterAll(async () => {
    await second?.close();
    await f?.close();
  });

  it('settles a background response once when both nodes poll it at the same time', async () => {
    f.fake.behave('bg-nodes-key', { content: 'raced to the end', backgroundReads: 2 });
    const { userId, key } = await f.newUser({ quota: 5_000_000 });
    const start = await balance(f, userId);
    const created = await f.openai(key).responses.create({ model: 'bg-nodes', input: 'two pollers', background: true });
    const nodes = [relayState(f.server.ctx), relayState(second.ctx)];
    for (let i = 0; i < 3; i++) await Promise.all(nodes.map((n) => backgroundPoller(n).runNow()));
    for (const n of nodes) await n.recorder.flush();
    const logs = await consumeLogs(f, userId);
    expect(logs).toHaveLength(1);
    expect(logs[0].completion_tokens).toBe(4);
    for (const n of nodes) await n.leases.settleUp();
    expect(logs[0].quota).toBe(start - (await balance(f, userId)));
    expect(Number((await bgRow(f, created.id))!.billed)).toBe(logs[0].quota);
  });

  it.skipIf(!redisAvailable())('stops a run of the gateway’s own on the node running it when another node cancels it', async () => {
    f.claude.behave('bg-nodes-claude-key', { content: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' '), chunkDelayMs: 50 });
    const { key } = await f.newUser({ quota: 5_000_000 });
    const client = f.openai(key);
    const created = await client.responses.create({ model: 'bg-nodes-claude', input: 'long', background: true });
    let got = await client.responses.retrieve(created.id);
    while (got.status !== 'in_progress') got = await client.responses.retrieve(created.id);
    const { default: OpenAI } = await import('openai');
    const other = new OpenAI({ apiKey: key, baseURL: `${secondUrl}/v1`, maxRetries: 0 });
    expect(await other.responses.cancel(created.id)).toMatchObject({ status: 'cancelled' });
    // The first node heard it: its run stops rather than running to completion.
    while (got.status === 'in_progress') {
      await new Promise((r) => setTimeout(r, 20));
      got = await client.responses.retrieve(created.id);
    }
    expect(got.status).toBe('cancelled');
  });
});
