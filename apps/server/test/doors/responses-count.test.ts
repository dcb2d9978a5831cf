import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { fakeInputTokens } from '../fakes/openai-endpoints.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const INSTRUCTIONS = 'You are a careful coding agent.';
const INPUT: OpenAI.Responses.ResponseInputItem[] = [
  { role: 'user', content: 'Rename the helper in utils.ts and update every caller.' },
  { role: 'assistant', content: 'Done: three callers were updated.' },
  { role: 'user', content: 'Now add a test for it, please.' },
];

describe.each(testDialects())('Responses input_tokens and compact on %s', (dialect) => {
  let f: DoorFixture;

  beforeAll(async () => {
    f = await doorFixture(dialect);
    for (const m of ['rc-openai', 'rc-claude', 'rc-gemini']) await f.unitPrice(m);
    await f.addChannel({ type: 1, key: 'rc-openai-key', models: 'rc-openai', model_mapping: JSON.stringify({ 'rc-openai': '+gpt-5.1-codex' }) });
    await f.addChannel({ type: 1, key: 'rc-down-key', base_url: 'http://127.0.0.1:9', models: 'rc-down' });
    await f.addChannel({ type: 14, key: 'rc-claude-key', base_url: f.claude.url, models: 'rc-claude' });
    await f.addChannel({ type: 25, key: 'rc-gemini-key', base_url: f.gemini.url, models: 'rc-gemini' });
    for (const key of ['rc-sticky-a', 'rc-sticky-b']) await f.addChannel({ type: 1, key, models: 'rc-sticky' });
    await f.addChannel({ type: 14, key: 'rc-mixed-claude', base_url: f.claude.url, models: 'rc-mixed' });
    await f.addChannel({ type: 1, key: 'rc-mixed-openai', models: 'rc-mixed' });
  });
  afterAll(async () => f?.close());

  const account = (userId: number) =>
    f.server.ctx.db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
  const consumeLogs = async (userId: number) => {
    await f.flush();
    return f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).execute();
  };

  it('input_tokens: an OpenAI channel answers the exact count (mapped model, channel key); elsewhere the local tokenizer; always free', async () => {
    const { key, userId } = await f.newUser({ quota: 1_000 });
    const before = await account(userId);
    const client = f.openai(key);

    const exact = await client.responses.inputTokens.count({ model: 'rc-openai', instructions: INSTRUCTIONS, input: INPUT });
    const sent = f.fake.forKey('rc-openai-key').at(-1)!;
    expect(sent.path).toBe('/v1/responses/input_tokens');
    expect(sent.body).toEqual({ model: 'gpt-5.1-codex', instructions: INSTRUCTIONS, input: INPUT });
    expect(exact).toEqual({ object: 'response.input_tokens', input_tokens: fakeInputTokens(sent.body) });

    // Anthropic and Gemini channels, and an OpenAI channel that cannot be reached, count locally: the same count.
    const claude = await client.responses.inputTokens.count({ model: 'rc-claude', instructions: INSTRUCTIONS, input: INPUT });
    const gemini = await client.responses.inputTokens.count({ model: 'rc-gemini', instructions: INSTRUCTIONS, input: INPUT });
    const down = await client.responses.inputTokens.count({ model: 'rc-down', instructions: INSTRUCTIONS, input: INPUT });
    expect(claude.object).toBe('response.input_tokens');
    expect(claude.input_tokens).toBeGreaterThan(20);
    expect(gemini.input_tokens).toBe(claude.input_tokens);
    expect(down.input_tokens).toBe(claude.input_tokens);
    expect(claude.input_tokens).not.toBe(exact.input_tokens);
    const shorter = await client.responses.inputTokens.count({ model: 'rc-claude', input: 'Hi' });
    expect(shorter.input_tokens).toBeLessThan(claude.input_tokens);
    expect(f.claude.received).toHaveLength(0);
    expect(f.gemini.received).toHaveLength(0);

    expect(await account(userId)).toEqual(before);
    expect(await consumeLogs(userId)).toHaveLength(0);
  });

  it('input_tokens: a body without a model or with a malformed input is a 400 naming the field', async () => {
    const { key } = await f.newUser({ quota: 1_000 });
    const client = f.openai(key);
    const noModel = await client.responses.inputTokens.count({ input: 'hello' }).catch((e) => e);
    expect(noModel).toBeInstanceOf(OpenAI.BadRequestError);
    expect(noModel.message).toContain('model');
    const badInput = await client.responses.inputTokens.count({ model: 'rc-claude', input: 42 as never }).catch((e) => e);
    expect(badInput).toBeInstanceOf(OpenAI.BadRequestError);
    expect(badInput.message).toContain('input');
  });

  it('compact: passes through to the OpenAI channel and is billed exactly on the reported usage, after a hold', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const before = await account(userId);
    const compacted = await f.openai(key).responses.compact({ model: 'rc-openai', instructions: INSTRUCTIONS, input: INPUT });
    const sent = f.fake.forKey('rc-openai-key').at(-1)!;
    expect(sent.path).toBe('/v1/responses/compact');
    expect(sent.body).toEqual({ model: 'gpt-5.1-codex', instructions: INSTRUCTIONS, input: INPUT });
    expect(compacted.object).toBe('response.compaction');
    expect(compacted.output.map((o) => o.type)).toEqual(['message', 'message', 'compaction']);
    expect(compacted.usage).toMatchObject({ input_tokens: 120, output_tokens: 30 });

    // Unit price: 1 quota per token each way, so the fake's 120 + 30 tokens cost 150.
    const [log] = await consumeLogs(userId);
    expect(log).toMatchObject({ model_name: 'rc-openai', prompt_tokens: 120, completion_tokens: 30, quota: 150, is_stream: 0 });
    const meta = JSON.parse(log.metadata ?? '{}');
    expect(meta).toMatchObject({ door: '/v1/responses/compact', usage_source: 'reported' });
    expect(meta.reserved).toBeGreaterThan(0);
    const after = await account(userId);
    expect(after.quota).toBe(before.quota - 150);
    expect(after.used_quota).toBe(before.used_quota + 150);
  });

  it('compact: the hold comes first, so a balance below it is refused before upstream is asked', async () => {
    const { key, userId } = await f.newUser({ quota: 5 });
    const asked = f.fake.forKey('rc-openai-key').length;
    const error = await f.openai(key).responses.compact({ model: 'rc-openai', instructions: INSTRUCTIONS, input: INPUT }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(402);
    expect(error.error).toMatchObject({ type: 'insufficient_quota' });
    expect(f.fake.forKey('rc-openai-key')).toHaveLength(asked);
    expect((await account(userId)).quota).toBe(5);
    expect(await consumeLogs(userId)).toHaveLength(0);
  });

  it('compact: Anthropic and Gemini channels answer a 400 in OpenAI shape saying they cannot compact; nothing is charged', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const before = await account(userId);
    for (const model of ['rc-claude', 'rc-gemini']) {
      const error = await f.openai(key).responses.compact({ model, input: INPUT }).catch((e) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error.status).toBe(400);
      expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'cannot_compact' });
      expect(error.message).toContain('cannot compact');
    }
    expect(f.claude.received).toHaveLength(0);
    expect(f.gemini.received).toHaveLength(0);
    expect(await consumeLogs(userId)).toHaveLength(0);
    expect((await account(userId)).quota).toBe(before.quota);
  });

  it('compact: with retries on, a group serving the model on Anthropic and OpenAI channels always ends on the OpenAI one', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    await f.setOption('RetryTimes', 2);
    try {
      for (let i = 0; i < 6; i++) {
        const compacted = await f.openai(key).responses.compact({ model: 'rc-mixed', input: `Conversation ${i}` });
        expect(compacted.object).toBe('response.compaction');
      }
    } finally {
      await f.setOption('RetryTimes', 0);
    }
    expect(f.fake.forKey('rc-mixed-openai').filter((r) => r.path === '/v1/responses/compact')).toHaveLength(6);
    expect(f.claude.received).toHaveLength(0);
  });

  it("compact goes to the channel that served the conversation (its encrypted items are that account's)", async () => {
    const { key } = await f.newUser({ quota: 1_000_000 });
    const client = f.openai(key);
    const served = (r: { key: string }) => r.key.startsWith('rc-sticky-');
    // Eight conversations over two equal channels: a compaction picked at random lands elsewhere for some of them.
    for (let i = 0; i < 8; i++) {
      const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: `Conversation ${i}: fix the flaky build.` }];
      await client.responses.create({ model: 'rc-sticky', instructions: INSTRUCTIONS, input, store: false });
      const turn = f.fake.received.filter(served).at(-1)!;
      await client.responses.compact({ model: 'rc-sticky', instructions: INSTRUCTIONS, input: [...input, { role: 'assistant', content: 'Fixed.' }] });
      const compaction = f.fake.received.filter(served).at(-1)!;
      expect(compaction.path).toBe('/v1/responses/compact');
      expect(compaction.key).toBe(turn.key);
    }
  });
});
