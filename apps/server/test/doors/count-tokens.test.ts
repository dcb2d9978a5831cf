import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { claudeCountTokens } from '../fakes/claude-answer.js';
import { FakeBedrock } from '../fakes/bedrock-upstream.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const SYSTEM = 'You are a helpful assistant.';
const MESSAGES: Anthropic.MessageParam[] = [{ role: 'user', content: 'How many tokens does this sentence take on the real model? Count each word, please.' }];

describe.each(testDialects())('count_tokens forwarding on %s', (dialect) => {
  let f: DoorFixture;
  const bedrock = new FakeBedrock('us-west-2');
  /** What the gateway counts by itself for the same body. */
  let local = 0;

  beforeAll(async () => {
    f = await doorFixture(dialect);
    await bedrock.start();
    const bedrockKey = bedrock.addCredentials('AKIDCOUNT', 'count/secret');
    await f.addChannel({ type: 32, key: bedrockKey, base_url: bedrock.url, models: 'claude-bedrock', model_mapping: JSON.stringify({ 'claude-bedrock': 'us.claude-3-5-sonnet-20241022' }) });
    await f.addChannel({ type: 14, key: 'count-ok', base_url: f.claude.url, models: 'claude-count', model_mapping: JSON.stringify({ 'claude-count': 'claude-sonnet-4-5-20250929' }) });
    await f.addChannel({ type: 14, key: 'count-slow', base_url: f.claude.url, models: 'claude-slow' });
    await f.addChannel({ type: 14, key: 'count-broken', base_url: f.claude.url, models: 'claude-broken' });
    await f.addChannel({ type: 14, key: 'count-down', base_url: 'http://127.0.0.1:9', models: 'claude-down' });
    await f.addChannel({ type: 1, key: 'openai-only', models: 'claude-openai' });
    f.claude.behave('count-slow', { delayMs: 3_000 });
    f.claude.behave('count-broken', { status: 500 });
    await f.setOption('ClaudeCountTokensForward', false);
    const { key } = await f.newUser({ quota: 1_000 });
    local = (await f.anthropic(key).messages.countTokens({ model: 'claude-count', system: SYSTEM, messages: MESSAGES })).input_tokens;
    await f.setOption('ClaudeCountTokensForward', true);
  });
  afterAll(async () => {
    await f?.close();
    await bedrock.close();
  });

  const countedUpstream = (key: string) => f.claude.forKey(key).filter((r) => r.path === '/v1/messages/count_tokens');

  it('asks the Anthropic channel for the exact count: mapped model, channel key, caller betas; still free', async () => {
    const { key, userId } = await f.newUser({ quota: 1_000 });
    const before = await f.server.ctx.db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
    const client = new Anthropic({ apiKey: key, baseURL: f.url, maxRetries: 0, defaultHeaders: { 'anthropic-beta': 'token-counting-2024-11-01' } });
    const counted = await client.messages.countTokens({ model: 'claude-count', system: SYSTEM, messages: MESSAGES });
    const sent = countedUpstream('count-ok').at(-1)!;
    expect(sent.body).toEqual({ model: 'claude-sonnet-4-5-20250929', system: SYSTEM, messages: MESSAGES });
    expect(sent.headers['x-api-key']).toBe('count-ok');
    expect(sent.headers['anthropic-beta']).toBe('token-counting-2024-11-01');
    expect(counted.input_tokens).toBe(claudeCountTokens(sent.body));
    expect(counted.input_tokens).not.toBe(local);

    // The /claude prefix forwards too.
    const prefixed = await new Anthropic({ apiKey: key, baseURL: `${f.url}/claude`, maxRetries: 0 }).messages.countTokens({ model: 'claude-count', system: SYSTEM, messages: MESSAGES });
    expect(prefixed.input_tokens).toBe(counted.input_tokens);
    expect(countedUpstream('count-ok')).toHaveLength(2);

    await f.flush();
    const after = await f.server.ctx.db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await f.server.ctx.db.selectFrom('logs').select('id').where('user_id', '=', userId).where('type', '=', 2).execute()).toHaveLength(0);
  });

  it("asks a Bedrock channel's signed CountTokens with the InvokeModel body it would send (bare model id, documented betas)", async () => {
    const { key } = await f.newUser({ quota: 1_000 });
    const client = new Anthropic({ apiKey: key, baseURL: f.url, maxRetries: 0, defaultHeaders: { 'anthropic-beta': 'claude-code-20250219,token-efficient-tools-2025-02-19' } });
    const counted = await client.messages.countTokens({ model: 'claude-bedrock', system: SYSTEM, messages: MESSAGES });
    const sent = bedrock.forKey('AKIDCOUNT').at(-1)!;
    expect(sent.path).toBe('/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/count-tokens');
    expect(sent.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDCOUNT\/\d{8}\/us-west-2\/bedrock\/aws4_request/);
    const invoke = JSON.parse(Buffer.from(sent.body.input.invokeModel.body, 'base64').toString('utf8'));
    expect(invoke).toEqual({ anthropic_version: 'bedrock-2023-05-31', system: SYSTEM, messages: MESSAGES, max_tokens: 1, anthropic_beta: ['token-efficient-tools-2025-02-19'] });
    expect(counted.input_tokens).toBe(claudeCountTokens(invoke));
    expect(counted.input_tokens).not.toBe(local);
  });

  it('counts locally within about 2 s when upstream is slow, fails or cannot be reached', async () => {
    const { key } = await f.newUser({ quota: 1_000 });
    const started = Date.now();
    const slow = await f.anthropic(key).messages.countTokens({ model: 'claude-slow', system: SYSTEM, messages: MESSAGES });
    const waited = Date.now() - started;
    expect(countedUpstream('count-slow')).toHaveLength(1);
    expect(waited).toBeGreaterThanOrEqual(1_900);
    expect(waited).toBeLessThan(2_900);
    expect(slow.input_tokens).toBe(local);

    const broken = await f.anthropic(key).messages.countTokens({ model: 'claude-broken', system: SYSTEM, messages: MESSAGES });
    expect(countedUpstream('count-broken')).toHaveLength(1);
    expect(broken.input_tokens).toBe(local);

    const down = await f.anthropic(key).messages.countTokens({ model: 'claude-down', system: SYSTEM, messages: MESSAGES });
    expect(down.input_tokens).toBe(local);
  });

  it('counts locally when no Anthropic channel serves the model, or when forwarding is off', async () => {
    const { key } = await f.newUser({ quota: 1_000 });
    const requestsBefore = f.claude.received.length;
    const openaiOnly = await f.anthropic(key).messages.countTokens({ model: 'claude-openai', system: SYSTEM, messages: MESSAGES });
    expect(openaiOnly.input_tokens).toBe(local);
    expect(f.fake.received.length).toBe(0);

    await f.setOption('ClaudeCountTokensForward', false);
    try {
      const off = await f.anthropic(key).messages.countTokens({ model: 'claude-count', system: SYSTEM, messages: MESSAGES });
      expect(off.input_tokens).toBe(local);
    } finally {
      await f.setOption('ClaudeCountTokensForward', true);
    }
    expect(f.claude.received.length).toBe(requestsBefore);
  });
});
