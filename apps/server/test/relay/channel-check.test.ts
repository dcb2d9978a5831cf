import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeCheckUpstream } from '../fakes/check-upstream.js';
import { FakeAnthropic } from '../fakes/anthropic-upstream.js';
import { channelCheckTiming } from '../../src/relay/channel-check/routes.js';
import { sameModel } from '../../src/relay/channel-check/checks.js';

interface Event {
  type: string;
  data: any;
}

/** The `message` events of an SSE body. */
function events(body: string): Event[] {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('event: message\ndata: '))
    .map((block) => JSON.parse(block.slice('event: message\ndata: '.length)));
}

describe('model name comparison', () => {
  it('accepts dated and versioned names of the same model only', () => {
    expect(sameModel('gpt-4o', 'gpt-4o-2024-08-06')).toBe(true);
    expect(sameModel('claude-3-5-sonnet-latest', 'claude-3-5-sonnet-20241022')).toBe(true);
    expect(sameModel('gemini-2.0-flash', 'models/gemini-2.0-flash')).toBe(true);
    expect(sameModel('gpt-4o', 'gpt-4o-mini')).toBe(false);
    expect(sameModel('gpt-4o', 'cheap-model-7b')).toBe(false);
  });
});

describe.each(testDialects())('channel check stream on %s', (dialect) => {
  let f: RelayFixture;
  let upstream: FakeCheckUpstream;
  let honest: number;
  let sloppy: number;
  const saved = { ...channelCheckTiming };

  beforeAll(async () => {
    upstream = new FakeCheckUpstream();
    await upstream.start();
    f = await relayFixture(dialect);
    await f.setOption('ServerAddress', f.url); // where upstreams fetch the probe image
    honest = await f.addChannel({ key: 'honest', base_url: upstream.url, models: 'gpt-4o' });
    sloppy = await f.addChannel({ key: 'sloppy', base_url: upstream.url, models: 'gpt-4o' });
  });
  afterAll(async () => {
    Object.assign(channelCheckTiming, saved);
    await f?.close();
    await upstream?.close();
  });

  const check = (body: unknown, client: ApiClient = f.root) => client.post('/api/sse/channel/check', body);

  it('runs the five probes per model and reports each check of an honest channel as passed', async () => {
    const res = await check({ id: honest, models: 'gpt-4o, gpt-4o' });
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toContain('text/event-stream');
    const list = events(res.raw.payload);
    expect(list.map((e) => e.type)).toEqual(['result', 'done']); // duplicates are checked once
    expect(list[1].data).toBe('completed');
    const report = list[0].data;
    expect(report.model).toBe('gpt-4o');
    expect(report.checks.map((c: { name: string; status: number }) => [c.name, c.status])).toEqual([
      ['basic', 1],
      ['error', 1],
      ['image', 1],
      ['json_schema', 1],
      ['tools', 1],
    ]);
    const [basic, error, image, , tools] = report.checks;
    expect(basic.remark).toContain('gpt-4o-2024-08-06');
    expect(basic.raw).toContain('"usage"');
    expect(error.remark).toContain('2 relay request id(s)');
    expect(image.remark).toContain('image fetched 1× (OpenAI)');
    expect(tools.remark).toBe('2 tool call(s): add, multiply');
  });

  it('flags a channel that swaps models, drops usage and ignores images, schemas and tools; heartbeats while waiting', async () => {
    Object.assign(channelCheckTiming, { heartbeatMs: 40 });
    upstream.delayMs = 60;
    try {
      const res = await check({ id: sloppy, models: 'gpt-4o' });
      const list = events(res.raw.payload);
      expect(list.filter((e) => e.type === 'heartbeat').length).toBeGreaterThan(0);
      expect(list.find((e) => e.type === 'heartbeat')!.data).toBe('ping');
      expect(list.at(-1)).toEqual({ type: 'done', data: 'completed' });
      const checks = list.find((e) => e.type === 'result')!.data.checks;
      expect(checks.map((c: { status: number }) => c.status)).toEqual([0, 2, 2, 0, 0]);
      expect(checks[0].remark).toContain('no usage in the answer');
      expect(checks[0].remark).toContain('answered by cheap-model-7b, not gpt-4o');
      expect(checks[1].remark).toBe('the upstream accepted an invalid request');
      expect(checks[2].remark).toContain('image never fetched from this server');
      expect(checks[3].remark).toBe('answer is not JSON');
      expect(checks[4].remark).toBe('no tool call');
    } finally {
      upstream.delayMs = 0;
      Object.assign(channelCheckTiming, saved);
    }
  });

  it('probes an Anthropic channel through the format conversion', async () => {
    const claude = new FakeAnthropic();
    await claude.start();
    try {
      claude.behave('claude-key', { content: '{"city":"Paris","temperature":18.5}', toolUse: { name: 'add', input: { a: 3, b: 4 } } });
      const id = await f.addChannel({ type: 14, key: 'claude-key', base_url: claude.url, models: 'claude-sonnet-4-5' });
      const list = events((await check({ id, models: 'claude-sonnet-4-5' })).raw.payload);
      const checks = list.find((e) => e.type === 'result')!.data.checks;
      const byName = Object.fromEntries(checks.map((c: { name: string; status: number; remark: string }) => [c.name, c]));
      expect(byName.basic).toMatchObject({ status: 1, remark: expect.stringContaining('model claude-sonnet-4-5') });
      expect(byName.json_schema.status).toBe(1);
      expect(byName.tools).toMatchObject({ status: 1, remark: '1 tool call(s): add' });
      expect(claude.received.filter((r) => r.path === '/v1/messages').length).toBeGreaterThanOrEqual(4);
    } finally {
      await claude.close();
    }
  });

  it('answers bad requests in the JSON envelope before any stream starts', async () => {
    expect(await check({ id: 999999, models: 'gpt-4o' })).toMatchObject({ status: 404, body: { success: false } });
    expect(await check({ id: honest, models: ' , ' })).toMatchObject({ status: 400, body: { message: expect.stringContaining('models must list') } });
    expect(await check({ models: 'gpt-4o' })).toMatchObject({ status: 400, body: { success: false } });
    const user = await f.newUser();
    expect((await check({ id: honest, models: 'gpt-4o' }, user.client)).status).toBe(403);
  });

  it('serves the probe image only while its check is live', async () => {
    const unknown = await fetch(`${f.url}/api/image/not-a-check`);
    expect(unknown.status).toBe(404);
  });
});
