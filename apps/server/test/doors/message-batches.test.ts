import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, testDialects, type TestServer } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';
import { balances, until } from '../relay/task-fixture.js';
import { relayState } from '../../src/relay/state.js';
import { taskPollers } from '../../src/relay/tasks/registry.js';
import { estimateBytes } from '../../src/relay/tokenizer.js';
import { CLAUDE_INPUT_TOKENS } from '../fakes/anthropic-upstream.js';

type User = Awaited<ReturnType<DoorFixture['newUser']>>;

/** The fake answers "Hello from the fake Claude": 5 output tokens beside its 10 input tokens. */
const OUTPUT_TOKENS = 5;
const MAX_TOKENS = 100;
const params = (model: string, text: string) => ({ model, max_tokens: MAX_TOKENS, messages: [{ role: 'user' as const, content: text }] });
/** The worst case the gateway holds for one request at a ratio (unit prices): its quick prompt estimate plus max_tokens. */
const worst = (p: object, ratio: number) => Math.ceil(estimateBytes(Buffer.byteLength(JSON.stringify(p))) * ratio) + Math.ceil(MAX_TOKENS * ratio);
/** One succeeded message of the fake at a ratio (unit prices). */
const succeeded = (ratio: number) => Math.ceil((CLAUDE_INPUT_TOKENS + OUTPUT_TOKENS) * ratio);

/** Anthropic Message Batches through the official SDK against the stateful fake (issue 36 item 5). */
describe.each(testDialects())('Anthropic Message Batches on %s', (dialect) => {
  let f: DoorFixture;
  let alice: User;
  let bob: User;
  let restarted: TestServer | undefined;
  const round = () => taskPollers(relayState((restarted ?? f.server).ctx)).batches.runNow();
  const consumeRows = async (server: TestServer, userId: number) => {
    await relayState(server.ctx).recorder.flush();
    return server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).orderBy('id').execute();
  };

  beforeAll(async () => {
    // Rounds are run by hand (runNow), so each poll is one step of the fake.
    f = await doorFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    await f.unitPrice('batch-claude');
    await f.unitPrice('batch-quarter');
    await f.unitPrice('batch-gpt');
    f.claude.acceptKeys = new Set(['batch-key', 'quarter-key']);
    await f.addChannel({ type: 14, key: 'batch-key', base_url: f.claude.url, models: 'batch-claude' });
    await f.addChannel({ type: 14, key: 'quarter-key', base_url: f.claude.url, models: 'batch-quarter', plugin: { batch: { price_ratio: '0.25' } } });
    await f.addChannel({ type: 1, key: 'gpt-key', models: 'batch-gpt' });
    alice = await f.newUser({ quota: 1_000_000 });
    bob = await f.newUser({ quota: 1_000_000 });
  });
  afterAll(async () => {
    if (!restarted) return f?.close();
    await restarted.destroy();
    await Promise.all([f.fake.close(), f.claude.close(), f.gemini.close()]);
  });

  it('holds the worst case, polls until the batch ends, bills the succeeded messages at the batch ratio and gives the rest back', async () => {
    const client = f.anthropic(alice.key);
    const requests = [
      { custom_id: 'first', params: params('batch-claude', 'Hello') },
      { custom_id: 'second', params: params('batch-claude', 'Hello again, a little longer') },
      { custom_id: 'fail-third', params: params('batch-claude', 'This one errors') },
    ];
    const held = requests.reduce((sum, r) => sum + worst(r.params, 0.5), 0);
    const created = await client.messages.batches.create({ requests });
    expect(created).toMatchObject({ type: 'message_batch', processing_status: 'in_progress', results_url: null });
    const sent = f.claude.received.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/messages/batches', key: 'batch-key' });
    // The SDK's anthropic-version reaches upstream unchanged (the fake refuses a request without one).
    expect(sent.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent.body.requests.map((r: { custom_id: string }) => r.custom_id)).toEqual(['first', 'second', 'fail-third']);
    expect(await balances(f, alice.userId, alice.tokenId)).toMatchObject({ quota: 1_000_000 - held, used: held });

    // The fake processes one request per retrieve: the third one ends it, and that retrieve bills it.
    expect((await client.messages.batches.retrieve(created.id)).request_counts).toMatchObject({ processing: 2, succeeded: 1 });
    expect((await client.messages.batches.retrieve(created.id)).processing_status).toBe('in_progress');
    const ended = await client.messages.batches.retrieve(created.id);
    expect(ended).toMatchObject({ processing_status: 'ended', request_counts: { succeeded: 2, errored: 1, processing: 0 } });
    expect(ended.results_url).toBe(`${f.url}/v1/messages/batches/${created.id}/results`);
    const cost = 2 * succeeded(0.5);
    expect(await balances(f, alice.userId, alice.tokenId)).toMatchObject({ quota: 1_000_000 - cost, used: cost });
    const rows = await consumeRows(f.server, alice.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model_name: 'batch-claude', quota: cost, prompt_tokens: 2 * CLAUDE_INPUT_TOKENS, completion_tokens: 2 * OUTPUT_TOKENS });
    expect(JSON.parse(rows[0].metadata!)).toMatchObject({ door: '/v1/messages/batches', batch_id: created.id, batch_ratio: 0.5, succeeded: 2, reserved: held });

    // A later retrieve or poll bills nothing again.
    await client.messages.batches.retrieve(created.id);
    await round();
    expect(await balances(f, alice.userId, alice.tokenId)).toMatchObject({ quota: 1_000_000 - cost });
    expect(await consumeRows(f.server, alice.userId)).toHaveLength(1);

    const results = [];
    for await (const line of await client.messages.batches.results(created.id)) results.push(line);
    expect(results.map((r) => [r.custom_id, r.result.type])).toEqual([
      ['first', 'succeeded'],
      ['second', 'succeeded'],
      ['fail-third', 'errored'],
    ]);
    expect(f.claude.received.at(-1)).toMatchObject({ path: `/v1/messages/batches/${created.id}/results`, key: 'batch-key' });

    const listed = await client.messages.batches.list();
    expect(listed.data.map((b) => b.id)).toEqual([created.id]);
    expect(listed.data[0].processing_status).toBe('ended');

    const deleted = await client.messages.batches.delete(created.id);
    expect(deleted).toEqual({ id: created.id, type: 'message_batch_deleted' });
    expect(f.claude.batches.batches.has(created.id)).toBe(false);
    const gone = await client.messages.batches.retrieve(created.id).catch((e) => e);
    expect(gone.status).toBe(404);
  });

  it("answers another user's batch id as an unknown one and lists only the caller's batches", async () => {
    const mine = await f.anthropic(alice.key).messages.batches.create({ requests: [{ custom_id: 'private', params: params('batch-claude', 'secret') }] });
    const seen = f.claude.received.length;
    const stranger = f.anthropic(bob.key);
    const calls = [
      () => stranger.messages.batches.retrieve(mine.id),
      () => stranger.messages.batches.cancel(mine.id),
      () => stranger.messages.batches.delete(mine.id),
      async () => {
        const res = await fetch(`${f.url}/v1/messages/batches/${mine.id}/results`, { headers: { 'x-api-key': bob.key, 'anthropic-version': '2023-06-01' } });
        throw Object.assign(new Error('refused'), { status: res.status, error: await res.json() });
      },
    ];
    for (const call of calls) {
      const e = await call().catch((err) => err);
      expect(e.status).toBe(404);
      expect(e.error).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining(`No message batch found with id '${mine.id}'`) } });
    }
    const unknown = await stranger.messages.batches.retrieve('msgbatch_nobody').catch((e) => e);
    const shape = (e: { status: number; error: object }, id: string) => [e.status, JSON.stringify(e.error).replace(id, 'ID').replace(/request id: [^)]+/, '')];
    expect(shape(await stranger.messages.batches.retrieve(mine.id).catch((e) => e), mine.id)).toEqual(shape(unknown, 'msgbatch_nobody'));
    expect(f.claude.received.length).toBe(seen); // nothing of it reached upstream
    expect((await stranger.messages.batches.list()).data).toEqual([]);
    expect((await f.anthropic(alice.key).messages.batches.list({ limit: 1 })).data.map((b) => b.id)).toEqual([mine.id]);
    // Paged: the newest first, then the older one after it.
    const second = await f.anthropic(alice.key).messages.batches.create({ requests: ['later', 'latest'].map((id) => ({ custom_id: id, params: params('batch-claude', id) })) });
    const page = await f.anthropic(alice.key).messages.batches.list({ limit: 1 });
    expect(page.data.map((b) => b.id)).toEqual([second.id]);
    expect(page.has_more).toBe(true);
    const next = await f.anthropic(alice.key).messages.batches.list({ limit: 1, after_id: second.id });
    expect(next.data.map((b) => b.id)).toEqual([mine.id]);
    const back = await f.anthropic(alice.key).messages.batches.list({ limit: 5, before_id: mine.id });
    expect(back.data.map((b) => b.id)).toEqual([second.id]);
    // An in-progress batch cannot be deleted: upstream's refusal reaches its owner.
    const refused = await f.anthropic(alice.key).messages.batches.delete(second.id).catch((e) => e);
    expect(refused.status).toBe(400);
    expect(refused.error.error.message).toContain('still processing');
  });

  it('forwards a cancel and bills what ended; the poller settles a batch its creator never asks about', async () => {
    const carol = await f.newUser({ quota: 1_000_000, token: { unlimited_quota: false, remain_quota: 500_000 } });
    const client = f.anthropic(carol.key);
    const requests = ['one', 'two', 'three', 'four'].map((id) => ({ custom_id: id, params: params('batch-quarter', `Request ${id}`) }));
    const held = requests.reduce((sum, r) => sum + worst(r.params, 0.25), 0);
    const batch = await client.messages.batches.create({ requests });
    expect(f.claude.received.at(-1)!.key).toBe('quarter-key');
    expect(await balances(f, carol.userId, carol.tokenId)).toMatchObject({ quota: 1_000_000 - held, tokenRemain: 500_000 - held });
    await client.messages.batches.retrieve(batch.id); // one request done
    const canceling = await client.messages.batches.cancel(batch.id);
    expect(canceling.processing_status).toBe('canceling');
    expect(f.claude.received.at(-1)).toMatchObject({ method: 'POST', path: `/v1/messages/batches/${batch.id}/cancel` });
    // Never retrieved again: the poller sees it end (1 succeeded, 3 canceled) and bills it at the channel's ratio of 0.25.
    await round();
    const cost = succeeded(0.25);
    expect(await balances(f, carol.userId, carol.tokenId)).toMatchObject({ quota: 1_000_000 - cost, used: cost, tokenRemain: 500_000 - cost, tokenUsed: cost });
    const rows = await consumeRows(f.server, carol.userId);
    expect(rows.map((r) => [r.model_name, r.quota])).toEqual([['batch-quarter', cost]]);
    expect(JSON.parse(rows[0].metadata!)).toMatchObject({ batch_ratio: 0.25, succeeded: 1 });
    const row = await f.server.ctx.db.selectFrom('message_batches').selectAll().where('batch_id', '=', batch.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: carol.userId, token_id: carol.tokenId, held, quota: cost, status: 'ended' });
  });

  it('refuses a batch for a model on another family, and one the balance cannot hold, before anything reaches upstream', async () => {
    const seen = f.claude.received.length + f.fake.received.length;
    const other = await f.anthropic(alice.key).messages.batches.create({ requests: [{ custom_id: 'x', params: params('batch-gpt', 'hi') }] }).catch((e) => e);
    expect(other.status).toBe(400);
    expect(other.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('Anthropic channels only') } });
    const poor = await f.newUser({ quota: 10 });
    const broke = await f.anthropic(poor.key).messages.batches.create({ requests: [{ custom_id: 'x', params: params('batch-claude', 'hi') }] }).catch((e) => e);
    expect(broke.status).toBe(402);
    expect(broke.error.error.type).toBe('billing_error');
    expect(f.claude.received.length + f.fake.received.length).toBe(seen);

    // Upstream refuses the batch (a request without messages): its reason reaches the caller and the hold goes back whole.
    const before = await balances(f, alice.userId, alice.tokenId);
    const batchRows = () => f.server.ctx.db.selectFrom('message_batches').select('id').where('user_id', '=', alice.userId).execute();
    const kept = (await batchRows()).length;
    const refused = await f.anthropic(alice.key).messages.batches.create({ requests: [{ custom_id: 'x', params: { model: 'batch-claude', max_tokens: 16, messages: [] } }] }).catch((e) => e);
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('at least one message is required') } });
    expect(f.claude.received.at(-1)).toMatchObject({ method: 'POST', path: '/v1/messages/batches' });
    expect(await balances(f, alice.userId, alice.tokenId)).toEqual(before);
    expect(await batchRows()).toHaveLength(kept);
  });

  it('keeps ownership and billing across two nodes: created on a worker node, billed by the master, private on both', async () => {
    const erin = await f.newUser({ quota: 1_000_000 });
    const node = await startTestServer(dialect, { reuse: f.server, env: { NODE_TYPE: 'slave', TASK_POLL_INTERVAL_MS: '600000' } });
    try {
      const nodeUrl = await node.listen();
      const onNode = (key: string) => new Anthropic({ apiKey: key, baseURL: nodeUrl, maxRetries: 0 });
      const requests = ['n1', 'n2'].map((id) => ({ custom_id: id, params: params('batch-claude', `node ${id}`) }));
      const held = requests.reduce((sum, r) => sum + worst(r.params, 0.5), 0);
      const batch = await onNode(erin.key).messages.batches.create({ requests });
      const nodeState = relayState(node.ctx);
      await nodeState.recorder.flush();
      await nodeState.leases.settleUp();
      expect(await balances(f, erin.userId, erin.tokenId)).toMatchObject({ quota: 1_000_000 - held });
      // The worker node runs no poller; the master's rounds see the batch end and bill it.
      expect(taskPollers(nodeState).batches.rounds).toBe(0);
      await round();
      await round();
      const cost = 2 * succeeded(0.5);
      expect(await balances(f, erin.userId, erin.tokenId)).toMatchObject({ quota: 1_000_000 - cost, used: cost });
      expect((await consumeRows(f.server, erin.userId)).map((r) => r.quota)).toEqual([cost]);
      expect(await onNode(erin.key).messages.batches.retrieve(batch.id)).toMatchObject({ id: batch.id, processing_status: 'ended', results_url: `${nodeUrl}/v1/messages/batches/${batch.id}/results` });
      expect((await f.anthropic(erin.key).messages.batches.list()).data.map((b) => b.id)).toEqual([batch.id]);
      for (const client of [onNode(bob.key), f.anthropic(bob.key)]) expect((await client.messages.batches.retrieve(batch.id).catch((e) => e)).status).toBe(404);
    } finally {
      await node.close();
    }
  });

  it('resumes after a restart: a batch created before it is billed by the new process when it ends', async () => {
    const dave = await f.newUser({ quota: 1_000_000 });
    const requests = ['r1', 'r2'].map((id) => ({ custom_id: id, params: params('batch-claude', `restart ${id}`) }));
    const held = requests.reduce((sum, r) => sum + worst(r.params, 0.5), 0);
    const batch = await f.anthropic(dave.key).messages.batches.create({ requests });
    expect(await balances(f, dave.userId, dave.tokenId)).toMatchObject({ quota: 1_000_000 - held });
    await f.server.close();
    restarted = await startTestServer(dialect, { reuse: f.server, env: { TASK_POLL_INTERVAL_MS: '30' } });
    const state = relayState(restarted.ctx);
    await until(async () => (await restarted!.ctx.db.selectFrom('message_batches').select('settled_at').where('batch_id', '=', batch.id).executeTakeFirstOrThrow()).settled_at > 0, 'the batch settled after the restart');
    await state.recorder.flush();
    await state.leases.settleUp();
    const cost = 2 * succeeded(0.5);
    const user = await restarted.ctx.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', dave.userId).executeTakeFirstOrThrow();
    expect(user).toEqual({ quota: 1_000_000 - cost, used_quota: cost });
    const rows = await consumeRows(restarted, dave.userId);
    expect(rows.map((r) => r.quota)).toEqual([cost]);
  });
});
