import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from '../doors/fixture.js';

/**
 * Usage classes beyond plain tokens, billed through the official SDKs: OpenAI prompt-cache writes
 * (`cache_write_tokens`, ratio 1.25 by default), the service tier the upstream reports serving
 * (multiplier per model), and Anthropic fast mode (`speed: "fast"`).
 */
describe.each(testDialects())('service classes on %s', (dialect) => {
  let f: DoorFixture;
  const meta = (log: Record<string, any>) => JSON.parse(log.metadata);

  beforeAll(async () => {
    f = await doorFixture(dialect);
    const price = (body: Record<string, unknown>) => f.root.post('/api/prices/single', { type: 'tokens', channel_type: 1, input: 1, output: 1, ...body });
    expect((await price({ model: 'gpt-svc', service_ratios: { flex: 0.5, priority: 2 } })).body.success).toBe(true);
    expect((await price({ model: 'claude-svc', channel_type: 14, service_ratios: { priority: 1.5, fast: 6 } })).body.success).toBe(true);
    await f.addChannel({ type: 1, key: 'svc-openai', base_url: f.fake.url, models: 'gpt-svc' });
    await f.addChannel({ type: 14, key: 'svc-claude', base_url: f.claude.url, models: 'claude-svc' });
  });
  afterAll(async () => f?.close());

  it('stores the multipliers and refuses unknown classes and negative values', async () => {
    const list = (await f.root.get('/api/prices')).body.data as Array<Record<string, unknown>>;
    expect(list.find((p) => p.model === 'gpt-svc')).toMatchObject({ service_ratios: { flex: 0.5, priority: 2 } });
    const bad = await f.root.post('/api/prices/single', { model: 'bad-svc', type: 'tokens', service_ratios: { turbo: 2 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('service_ratios');
    expect((await f.root.post('/api/prices/single', { model: 'bad-svc', type: 'tokens', service_ratios: { flex: -1 } })).status).toBe(400);
  });

  it('bills OpenAI cache writes and the reported tier on a chat answer, and holds at the asked tier', async () => {
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    f.fake.behave('svc-openai', { usage: { prompt: 100, completion: 10, cached: 20, cacheWrite: 40 } });
    const client = f.openai(key);
    const answer = await client.chat.completions.create({ model: 'gpt-svc', service_tier: 'priority', max_tokens: 1000, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.service_tier).toBe('priority');
    expect(answer.usage?.prompt_tokens_details?.cache_write_tokens).toBe(40);
    const log = await f.lastLog(userId);
    // In: 100 + trunc(20 × (0.5 − 1)) + trunc(40 × (1.25 − 1)) = 100 − 10 + 10 = 100; out 10.
    // Priority multiplies the whole price: (100 + 10) × 2 = 220.
    expect(log).toMatchObject({ prompt_tokens: 100, completion_tokens: 10, cache_read_tokens: 20, cache_write_tokens: 40, quota: 220 });
    expect(meta(log)).toMatchObject({ service_tier: 'priority', service_ratio: 2, cached_write_tokens: 40, extra_ratios: { cached: 0.5, cached_write: 1.25 } });
    const priorityHold = meta(log).reserved as number;

    await client.chat.completions.create({ model: 'gpt-svc', service_tier: 'default', max_tokens: 1000, messages: [{ role: 'user', content: 'hi' }] });
    const plain = await f.lastLog(userId);
    expect(plain.quota).toBe(110);
    expect(meta(plain)).toMatchObject({ service_tier: 'default' });
    expect(meta(plain).service_ratio).toBeUndefined();
    // The same request held at ×2 when it asked for priority (1000 output tokens are above the PreConsumedQuota floor).
    expect(priorityHold).toBe(2 * (meta(plain).reserved as number));
  });

  it('bills the tier the stream reports, not the one asked for (auto served as flex)', async () => {
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    f.fake.behave('svc-openai', { usage: { prompt: 100, completion: 10, cacheWrite: 40 }, serviceTier: 'flex' });
    const stream = await f.openai(key).chat.completions.create({
      model: 'gpt-svc', service_tier: 'auto', stream: true, stream_options: { include_usage: true }, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }],
    });
    let tier: string | null | undefined;
    for await (const chunk of stream) tier = chunk.service_tier ?? tier;
    expect(tier).toBe('flex');
    const log = await f.lastLog(userId);
    // In: 100 + trunc(40 × 0.25) = 110; out 10; flex: 120 × 0.5 = 60.
    expect(log).toMatchObject({ is_stream: 1, cache_write_tokens: 40, quota: 60 });
    expect(meta(log)).toMatchObject({ service_tier: 'flex', service_ratio: 0.5 });
  });

  it('bills the Responses API the same way, plain and streamed', async () => {
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    f.fake.behave('svc-openai', { usage: { prompt: 100, completion: 10, cached: 20, cacheWrite: 40 } });
    const client = f.openai(key);
    const res = await client.responses.create({ model: 'gpt-svc', input: 'hi', service_tier: 'flex' });
    expect(res.service_tier).toBe('flex');
    expect(res.usage?.input_tokens_details.cache_write_tokens).toBe(40);
    // (100 − 10 + 10 + 10) × 0.5 = 55.
    expect(await f.lastLog(userId)).toMatchObject({ cache_write_tokens: 40, quota: 55 });

    const stream = await client.responses.create({ model: 'gpt-svc', input: 'hi', service_tier: 'priority', stream: true });
    for await (const event of stream) void event;
    const log = await f.lastLog(userId);
    // (100 − 10 + 10 + 10) × 2 = 220.
    expect(log).toMatchObject({ is_stream: 1, cache_write_tokens: 40, quota: 220 });
    expect(meta(log)).toMatchObject({ service_tier: 'priority', service_ratio: 2 });
  });

  it('bills Anthropic fast mode and the reported Priority Tier, plain and streamed', async () => {
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    f.claude.behave('svc-claude', { content: 'Hi there from Claude', cache: { read: 30, creation: 20 }, serviceTier: 'priority' });
    const client = f.anthropic(key);
    const answer = await client.messages.create({ model: 'claude-svc', max_tokens: 100, speed: 'fast', messages: [{ role: 'user', content: 'hello' }] });
    expect(answer.usage).toMatchObject({ service_tier: 'priority', speed: 'fast' });
    expect(f.claude.forKey('svc-claude').at(-1)!.body.speed).toBe('fast');
    const log = await f.lastLog(userId);
    // In: 10 + 30 + 20 = 60, − trunc(30 × 0.9) + trunc(20 × 0.25) = 38; out 4 words: 42.
    // Priority 1.5 × fast 6 = 9: 42 × 9 = 378.
    expect(log).toMatchObject({ prompt_tokens: 60, completion_tokens: 4, cache_write_tokens: 20, quota: 378 });
    expect(meta(log)).toMatchObject({ service_tier: 'priority', speed: 'fast', service_ratio: 9 });

    // standard_only keeps Priority Tier out; fast mode alone: 42 × 6 = 252.
    const stream = client.messages.stream({ model: 'claude-svc', max_tokens: 100, speed: 'fast', service_tier: 'standard_only', messages: [{ role: 'user', content: 'hello' }] });
    const final = await stream.finalMessage();
    expect(final.usage).toMatchObject({ service_tier: 'standard', speed: 'fast' });
    const streamed = await f.lastLog(userId);
    expect(streamed).toMatchObject({ is_stream: 1, quota: 252 });
    expect(meta(streamed)).toMatchObject({ service_tier: 'standard', speed: 'fast', service_ratio: 6 });
  });
});
