import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const BETA = 'claude-code-20250219,interleaved-thinking-2025-05-14';
const CACHED_SYSTEM = [
  { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
  { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } },
];
/** Claude Code asks with `?beta=true` on every Messages call. */
const AS_CLAUDE_CODE = { query: { beta: 'true' } };
const STRAY = '<system-reminder>The user switched to plan mode.</system-reminder>';

/**
 * Claude Code's contract with the gateway (issue 36): it speaks to the root with `?beta=true`,
 * its headers reach an Anthropic channel unchanged, and on a model name it does not know
 * (GPT, Gemini) it sends `system` turns inside `messages`, which every channel family serves.
 */
describe.each(testDialects())('Claude Code on any model on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  const urls: string[] = [];
  const versions: Array<string | null> = [];
  let client: Anthropic;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.addChannel({ type: 14, key: 'cc-claude', base_url: f.claude.url, models: 'claude-sonnet-4-5-20250929' });
    await f.addChannel({ type: 1, key: 'cc-openai', models: 'gpt-5-codex' });
    await f.addChannel({ type: 25, key: 'cc-gemini', base_url: f.gemini.url, models: 'gemini-2.5-pro' });
    ({ key } = await f.newUser({ quota: 10_000_000 }));
    const recording: typeof fetch = (input, init) => {
      urls.push(String(input instanceof Request ? input.url : input));
      versions.push(new Headers(init?.headers).get('anthropic-version'));
      return fetch(input, init);
    };
    client = new Anthropic({ apiKey: key, baseURL: f.url, maxRetries: 0, fetch: recording, defaultHeaders: { 'anthropic-beta': BETA } });
  });
  afterAll(async () => f?.close());

  // What Claude Code sends for `--model gpt-5-codex`: roles ['user', 'system'].
  const strayBody = (model: string, system: unknown = CACHED_SYSTEM) =>
    ({ model, max_tokens: 64, system, messages: [{ role: 'user', content: 'list the files' }, { role: 'system', content: STRAY }] }) as any;

  it('an Anthropic channel gets the stray system turn folded after the cached system blocks, everything else as sent', async () => {
    const answer = await client.beta.messages.create(strayBody('claude-sonnet-4-5-20250929'), AS_CLAUDE_CODE);
    expect(answer.content[0]).toMatchObject({ type: 'text' });
    expect(urls.at(-1)).toBe(`${f.url}/v1/messages?beta=true`);
    const got = f.claude.forKey('cc-claude').at(-1)!;
    expect(got.headers['anthropic-beta']).toBe(BETA);
    expect(versions.at(-1)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(got.headers['anthropic-version']).toBe(versions.at(-1));
    const expected = { model: 'claude-sonnet-4-5-20250929', max_tokens: 64, system: [...CACHED_SYSTEM, { type: 'text', text: STRAY }], messages: [{ role: 'user', content: 'list the files' }] };
    expect(got.raw).toBe(JSON.stringify(expected));
  });

  it('an OpenAI channel (--model gpt-5-codex) gets one system message: the top-level prompt, then the stray text', async () => {
    const stream = client.beta.messages.stream(strayBody('gpt-5-codex', 'You are Claude Code.'), AS_CLAUDE_CODE);
    const answer = await stream.finalMessage();
    expect(answer.stop_reason).toBe('end_turn');
    const body = f.fake.forKey('cc-openai').at(-1)!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: `You are Claude Code.\n${STRAY}` },
      { role: 'user', content: 'list the files' },
    ]);
  });

  it('a Gemini channel (--model gemini-2.5-pro) gets the stray text last in systemInstruction, never as a content turn', async () => {
    const answer = await client.beta.messages.create(strayBody('gemini-2.5-pro'), AS_CLAUDE_CODE);
    expect(answer.content[0]).toMatchObject({ type: 'text' });
    const got = f.gemini.forKey('cc-gemini').at(-1)!;
    expect(got.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(got.body.systemInstruction.parts.map((p: any) => p.text)).toEqual([...CACHED_SYSTEM.map((b) => b.text), STRAY]);
    expect(got.body.contents).toEqual([{ role: 'user', parts: [{ text: 'list the files' }] }]);
  });

  it('count_tokens takes the stray system turn too, and counts its text', async () => {
    const body = strayBody('gpt-5-codex');
    const { messages, ...rest } = body;
    const withStray = await client.beta.messages.countTokens(body, AS_CLAUDE_CODE);
    const without = await client.beta.messages.countTokens({ ...rest, messages: messages.slice(0, 1) }, AS_CLAUDE_CODE);
    expect(urls.at(-1)).toBe(`${f.url}/v1/messages/count_tokens?beta=true`);
    expect(withStray.input_tokens).toBeGreaterThan(without.input_tokens);
    // Forwarded to an Anthropic channel for the exact count (ClaudeCountTokensForward), folded the same way.
    await client.beta.messages.countTokens(strayBody('claude-sonnet-4-5-20250929'), AS_CLAUDE_CODE);
    const counted = f.claude.forKey('cc-claude').filter((r) => r.path === '/v1/messages/count_tokens').at(-1)!;
    expect(counted.body.messages).toEqual([{ role: 'user', content: 'list the files' }]);
    expect(counted.body.system.at(-1)).toEqual({ type: 'text', text: STRAY });
    expect(counted.headers['anthropic-beta']).toBe('token-counting-2024-11-01'); // what this SDK call sends, unchanged
  });

  it('a system turn holding anything but text is a 400 naming the block', async () => {
    const body = { model: 'gpt-5-codex', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] }] };
    const error = await client.beta.messages.create(body as any, AS_CLAUDE_CODE).catch((e) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.error.error.message).toMatch(/^messages\.1\.content\.0: a system message may hold only text blocks/);
  });

  it('answers HEAD / and lists models in Anthropic shape at /v1/models', async () => {
    expect((await fetch(`${f.url}/`, { method: 'HEAD' })).status).toBe(200);
    const ids: string[] = [];
    for await (const m of client.models.list()) {
      expect(m.type).toBe('model');
      ids.push(m.id);
    }
    expect(ids).toEqual(expect.arrayContaining(['claude-sonnet-4-5-20250929', 'gpt-5-codex', 'gemini-2.5-pro']));
  });
});
