import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';

const auth = { authorization: `Basic ${Buffer.from('prom:s3cret').toString('base64')}` };
const value = (text: string, series: RegExp) => Number(new RegExp(`^${series.source} (\\S+)$`, 'm').exec(text)?.[1]);

// Series live in memory: one dialect covers them.
describe('operator metrics', () => {
  let f: RelayFixture;
  let key: string;
  let ok: number;
  let down: number;
  let badKey: number;
  beforeAll(async () => {
    f = await relayFixture('sqlite', { METRICS_USER: 'prom', METRICS_PASSWORD: 's3cret' });
    await f.server.ctx.db.insertInto('prices').values({ model: 'om-down', type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    ok = await f.addChannel({ key: 'om-ok' });
    down = await f.addChannel({ key: 'om-down', models: 'om-down' });
    badKey = await f.addChannel({ key: 'om-badkey', models: 'om-down', priority: 5 });
    f.fake.behave('om-down', { status: 503 });
    f.fake.behave('om-badkey', { status: 401 });
    await f.setOption('RetryTimes', 2);
    key = (await f.newUser({ quota: 1_000_000 })).key;
  });
  afterAll(async () => f?.close());

  const scrape = async () => (await fetch(`${f.url}/api/metrics`, { headers: auth })).text();

  it('graphs time to first token and output speed per channel and model, and upstream errors by class', async () => {
    const stream = await f.openai(key).chat.completions.create({ model: 'test-model', stream: true, messages: [{ role: 'user', content: 'one two three' }] });
    for await (const chunk of stream) void chunk;
    await f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] });
    await f.openai(key).chat.completions.create({ model: 'om-down', messages: [{ role: 'user', content: 'hi' }] }).catch(() => undefined);
    const text = await scrape();
    expect(value(text, new RegExp(`relay_time_to_first_token_seconds_count\\{channel_id="${ok}",model="test-model"\\}`))).toBe(1);
    expect(value(text, new RegExp(`relay_output_tokens_per_second_count\\{channel_id="${ok}",model="test-model"\\}`))).toBe(2);
    expect(value(text, new RegExp(`relay_output_tokens_per_second_sum\\{channel_id="${ok}",model="test-model"\\}`))).toBeGreaterThan(0);
    expect(value(text, new RegExp(`relay_upstream_errors_total\\{channel_id="${badKey}",class="channel",status="401"\\}`))).toBe(1);
    expect(value(text, new RegExp(`relay_upstream_errors_total\\{channel_id="${down}",class="retryable",status="503"\\}`))).toBe(1);
  });

  it('shows holds in flight, the log batch lag and pending async tasks', async () => {
    // Log rows wait for the batch (BATCH_FLUSH_MS is a minute in the fixture): the lag grows until a flush.
    await f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] });
    await new Promise((r) => setTimeout(r, 50));
    let text = await scrape();
    expect(value(text, /relay_log_batch_lag_seconds/)).toBeGreaterThan(0.04);
    expect(value(text, /relay_holds_in_flight/)).toBe(0);
    await f.flush();
    text = await scrape();
    expect(value(text, /relay_log_batch_lag_seconds/)).toBe(0);

    f.fake.behave('om-ok', { hold: true });
    const held = f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] });
    await expect.poll(async () => value(await scrape(), /relay_holds_in_flight/)).toBe(1);
    f.fake.behave('om-ok', {});
    f.fake.release();
    await held;

    await f.server.ctx.db.insertInto('tasks').values([
      { task_id: 't1', platform: 'suno', user_id: 1, status: 'IN_PROGRESS' },
      { task_id: 't2', platform: 'suno', user_id: 1, status: 'SUCCESS' },
    ]).execute();
    text = await scrape();
    expect(value(text, /relay_async_tasks_pending\{kind="task"\}/)).toBe(1);
    expect(value(text, /relay_async_tasks_pending\{kind="midjourney"\}/)).toBe(0);
  });

  it('ships a Grafana dashboard that graphs these series', () => {
    const path = fileURLToPath(new URL('../../../../deploy/grafana/one-hub.json', import.meta.url));
    const dashboard = JSON.parse(readFileSync(path, 'utf8'));
    const queries = dashboard.panels.flatMap((p: any) => (p.targets ?? []).map((t: any) => t.expr)).join('\n');
    for (const series of ['relay_time_to_first_token_seconds', 'relay_output_tokens_per_second', 'relay_upstream_errors_total', 'relay_holds_in_flight', 'relay_log_batch_lag_seconds', 'relay_async_tasks_pending', 'http_requests_total']) {
      expect(queries, series).toContain(series);
    }
  });
});
