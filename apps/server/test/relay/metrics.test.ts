import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayFixture, type RelayFixture } from './fixture.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

// Counters live in memory, so one dialect is enough.
describe('Prometheus metrics', () => {
  let f: RelayFixture;
  let key: string;
  beforeAll(async () => {
    f = await relayFixture('sqlite', { METRICS_USER: 'prom', METRICS_PASSWORD: 's3cret' });
    await f.addChannel({ key: 'metrics-ok' });
    key = (await f.newUser({ quota: 1_000_000 })).key;
  });
  afterAll(async () => f?.close());

  const scrape = (authorization?: string) => fetch(`${f.url}/api/metrics`, { headers: authorization ? { authorization } : {} });

  it('hides the endpoint behind Basic auth as an empty 404', async () => {
    for (const auth of [undefined, basic('prom', 'wrong'), basic('other', 's3cret'), 'Bearer s3cret']) {
      const res = await scrape(auth);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('');
    }
  });

  it('counts requests by route pattern and upstream attempts by channel, model and outcome', async () => {
    const answer = await f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBeTruthy();
    const stream = await f.openai(key).chat.completions.create({ model: 'test-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    for await (const chunk of stream) void chunk;
    await fetch(`${f.url}/api/status`);
    const res = await scrape(basic('prom', 's3cret'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/http_requests_total\{method="POST",path="\/v1\/chat\/completions",code="200"\} 2/);
    expect(text).toMatch(/http_requests_total\{method="GET",path="\/api\/status",code="200"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="POST",path="\/v1\/chat\/completions",code="200"\} 2/);
    expect(text).toMatch(/provider_requests_total\{channel_type="1",channel_id="\d+",model="test-model",type="success"\} 2/);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('a server without credentials never serves metrics', async () => {
    const other = await relayFixture('sqlite');
    try {
      expect((await fetch(`${other.url}/api/metrics`, { headers: { authorization: basic('', '') } })).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});
