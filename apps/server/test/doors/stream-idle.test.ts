import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const MODEL = 'claude-idle';

describe.each(testDialects())('streams that go silent on %s', (dialect) => {
  let f: DoorFixture;

  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.unitPrice(MODEL);
    await f.addChannel({ type: 14, key: 'idle-key', base_url: f.claude.url, models: MODEL });
    await f.setOption('StreamIdleTimeoutSeconds', 1);
    f.claude.behave('idle-key', { content: 'one two three four', stallAfterChunks: 2 });
  });
  afterAll(async () => f?.close());

  it('ends a stalled Anthropic stream with an Anthropic error event after the idle timeout; the delivered part is billed and the log says why', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const started = Date.now();
    const stream = f.anthropic(key).messages.stream({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const error = await stream.finalMessage().catch((e) => e);
    const waited = Date.now() - started;
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(String(error.message)).toContain('upstream sent nothing for 1 s');
    expect(texts.join('')).toBe('one two');
    expect(waited).toBeGreaterThanOrEqual(1_000);
    expect(waited).toBeLessThan(5_000);
    const log = await f.lastLog(userId);
    expect(log.content).toContain('upstream stream broke off: upstream sent nothing for 1 s');
    expect(log).toMatchObject({ is_stream: 1, prompt_tokens: 10 });
    expect(Number(log.quota)).toBeGreaterThan(0);
  });

  it('ends the same stall converted for an OpenAI client with an OpenAI error chunk, no [DONE]', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const stream = await f.openai(key).chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'go' }] });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    })().catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(String(error.message)).toContain('upstream sent nothing for 1 s');
    expect(text).toBe('one two');
    const log = await f.lastLog(userId);
    expect(log.content).toContain('upstream sent nothing for 1 s');
    expect(Number(log.quota)).toBeGreaterThan(0);
  });

  it('ends a stalled Gemini-door stream with a Google error chunk', async () => {
    await f.unitPrice('gemini-idle');
    await f.addChannel({ type: 25, key: 'gemini-idle-key', base_url: f.gemini.url, models: 'gemini-idle' });
    f.gemini.behave('gemini-idle-key', { content: 'one two three four', stallAfterChunks: 2 });
    const { key, userId } = await f.newUser({ quota: 100_000 });
    let text = '';
    const error = await (async () => {
      for await (const chunk of await f.genai(key).models.generateContentStream({ model: 'gemini-idle', contents: 'count' })) text += chunk.text ?? '';
    })().catch((e) => e);
    expect(String(error?.message)).toContain('upstream sent nothing for 1 s');
    expect(text).toBe('one two');
    expect((await f.lastLog(userId)).content).toContain('upstream sent nothing for 1 s');
  });

  it('fails over, free of charge, a stream that goes silent before its first byte', async () => {
    await f.unitPrice('claude-idle-2');
    const silent = await f.addChannel({ type: 14, key: 'silent-key', base_url: f.claude.url, models: 'claude-idle-2', priority: 10 });
    const healthy = await f.addChannel({ type: 14, key: 'healthy-key', base_url: f.claude.url, models: 'claude-idle-2', priority: 0 });
    f.claude.behave('silent-key', { stallBeforeFirstChunk: true });
    f.claude.behave('healthy-key', { content: 'from the second channel' });
    await f.setOption('RetryTimes', 1);
    try {
      const { key, userId } = await f.newUser({ quota: 100_000 });
      const message = await f.anthropic(key).messages.stream({ model: 'claude-idle-2', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] }).finalMessage();
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'from the second channel' });
      expect(f.claude.forKey('silent-key')).toHaveLength(1);
      await f.flush();
      const logs = await f.server.ctx.db.selectFrom('logs').select(['channel_id', 'content']).where('user_id', '=', userId).where('type', '=', 2).execute();
      expect(logs).toEqual([{ channel_id: healthy, content: '' }]);
      expect(silent).not.toBe(healthy);
    } finally {
      await f.setOption('RetryTimes', 0);
    }
  });

  it('lets a slow but steady stream run longer than the idle timeout', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    f.claude.behave('idle-key', { content: 'slow but steady words arrive', chunkDelayMs: 400 });
    try {
      const started = Date.now();
      const message = await f.anthropic(key).messages.stream({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] }).finalMessage();
      expect(Date.now() - started).toBeGreaterThan(1_500);
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'slow but steady words arrive' });
    } finally {
      f.claude.behave('idle-key', { content: 'one two three four', stallAfterChunks: 2 });
    }
  });
});
