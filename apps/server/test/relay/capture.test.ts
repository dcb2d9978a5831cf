import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';

const now = () => Math.floor(Date.now() / 1000);

describe.each(testDialects())('opt-in capture of relay bodies on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    await f.addChannel({ key: 'cap-key', models: 'test-model' });
  });
  afterAll(async () => f?.close());

  const send = async (key: string, content: string, extra: Record<string, unknown> = {}) => {
    const res = await fetch(`${f.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content }], ...extra }),
    });
    await res.text();
    return { status: res.status, requestId: String(res.headers.get('x-oneapi-request-id')) };
  };
  const captures = async (requestId: string) => {
    // Captures are written beside the answer: wait for the row, not a fixed time.
    let rows: Array<Record<string, string | number>> = [];
    await expect.poll(async () => (rows = (await f.root.get(`/api/log/capture?request_id=${requestId}`)).body.data).length, { timeout: 5000 }).toBeGreaterThan(0);
    return rows;
  };

  it('costs nothing and captures nothing while no rule is live', async () => {
    expect(relayState(f.server.ctx).capture.active).toBe(false);
    const { key } = await f.newUser({ quota: 1_000_000 });
    const { requestId } = await send(key, 'no capture here');
    const rows = await f.server.ctx.db.selectFrom('log_captures').selectAll().where('request_id', '=', requestId).execute();
    expect(rows).toHaveLength(0);
  });

  it('captures a named user\'s request and answer with keys, Authorization and configured patterns redacted, size-capped', async () => {
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const other = await f.newUser({ quota: 1_000_000 });
    const bad = await f.root.put('/api/option/', { key: 'LogCaptureRules', value: JSON.stringify([{ kind: 'person', id: 1, until: 1 }]) });
    expect(bad.status).toBe(400);
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'user', id: userId, until: now() + 3600 }]));
    await f.setOption('LogCaptureRedactPatterns', 'ACCT-\\d+');
    await f.setOption('LogCaptureMaxBytes', 1024);
    expect(relayState(f.server.ctx).capture.active).toBe(true);
    const { requestId } = await send(key, `my account ACCT-12345 and key sk-secretsecret123456 ${'x'.repeat(3000)}`, { api_key: 'plain-secret-value' });
    const [row] = await captures(requestId);
    expect(row).toMatchObject({ user_id: userId, status: 200 });
    const all = JSON.stringify(row);
    for (const secret of ['ACCT-12345', 'sk-secretsecret123456', 'plain-secret-value', key.slice(3)]) expect({ secret, found: all.includes(secret) }).toEqual({ secret, found: false });
    expect(String(row.request_headers)).toContain('"authorization":"[redacted]"');
    expect(String(row.request_body)).toContain('[cut at 1024 bytes]');
    expect(String(row.response_body)).toContain('chat.completion');
    // Another user's requests are not captured.
    const plain = await send(other.key, 'not me');
    expect(await f.server.ctx.db.selectFrom('log_captures').selectAll().where('request_id', '=', plain.requestId).execute()).toHaveLength(0);
  });

  it('captures a failed attempt by channel with the upstream answer, for root only; an expired rule captures nothing', async () => {
    const channel = await f.addChannel({ key: 'cap-fail', models: 'fail-model' });
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'channel', id: channel, until: now() + 3600 }]));
    f.fake.behave('cap-fail', { status: 400, errorBody: { error: { message: 'bad thing', type: 'invalid_request_error' } } });
    const { key, client } = await f.newUser({ quota: 1_000_000 });
    const res = await fetch(`${f.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'fail-model', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).toBe(400);
    const requestId = String(res.headers.get('x-oneapi-request-id'));
    const [row] = await captures(requestId);
    expect(row).toMatchObject({ channel_id: channel, status: 400 });
    expect(String(row.response_body)).toContain('bad thing');
    expect((await client.get(`/api/log/capture?request_id=${requestId}`)).status).toBe(403);
    expect((await f.root.get('/api/log/capture')).status).toBe(400);

    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'channel', id: channel, until: now() - 1 }]));
    expect(relayState(f.server.ctx).capture.active).toBe(false);
    f.fake.behave('cap-fail', {});
    const later = await send(key, 'after expiry');
    expect(await f.server.ctx.db.selectFrom('log_captures').selectAll().where('request_id', '=', later.requestId).execute()).toHaveLength(0);
  });

  it('deletes captures older than the retention period', async () => {
    await f.server.ctx.db.insertInto('log_captures').values({ created_at: now() - 30 * 86_400, request_id: 'old-one' }).execute();
    await f.setOption('LogCaptureRetentionDays', 7);
    expect(await relayState(f.server.ctx).capture.prune(true)).toBeGreaterThanOrEqual(1);
    expect(await f.server.ctx.db.selectFrom('log_captures').selectAll().where('request_id', '=', 'old-one').execute()).toHaveLength(0);
  });
});
