import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { FakePriceService } from '../fakes/price-service.js';
import { jobRunner } from '../../src/jobs/index.js';

describe.each(testDialects())('price sync from a published list: preview and apply on %s', (dialect) => {
  let f: RelayFixture;
  let list: FakePriceService;
  let url: string;
  beforeAll(async () => {
    list = new FakePriceService();
    await list.start();
    url = `${list.url}/prices.json`;
    f = await relayFixture(dialect, { UPDATE_PRICE_SERVICE: url, AUTO_PRICE_UPDATES: 'true', AUTO_PRICE_UPDATES_MODE: 'update' });
    await f.root.post('/api/prices/single', { model: 'ps-open', type: 'tokens', channel_type: 1, input: 1, output: 1 });
    await f.root.post('/api/prices/single', { model: 'ps-same', type: 'tokens', channel_type: 1, input: 2, output: 2 });
    await f.root.post('/api/prices/single', { model: 'ps-locked', type: 'tokens', input: 1, output: 1, locked: true });
    list.prices = [
      { model: 'ps-open', type: 'tokens', channel_type: 1, input: 3, output: 6, tiers: [{ above: 200000, input: 6, output: 9 }] },
      { model: 'ps-same', type: 'tokens', channel_type: 1, input: 2, output: 2 },
      { model: 'ps-locked', type: 'tokens', channel_type: 1, input: 9, output: 9 },
      { model: 'ps-new', type: 'times', channel_type: 1, input: 0.5, output: 0.5 },
    ];
  });
  afterAll(async () => {
    await f?.close();
    await list?.close();
  });

  const price = async (model: string) => (await f.root.get('/api/prices')).body.data.find((p: { model: string }) => p.model === model);
  const audits = async () => (await f.root.get('/api/audit/?size=100&target_kind=price')).body.data.data.filter((a: { action: string }) => a.action === 'sync');

  it('previews the diff (added, changed with old and new values, removed) and changes nothing', async () => {
    const update = (await f.root.post('/api/prices/sync/preview', { updateMode: 'update' })).body.data;
    expect(update).toMatchObject({ url, mode: 'update', fetched: 4, added: [], removed: [] });
    expect(update.changed).toEqual([
      {
        model: 'ps-open',
        before: { model: 'ps-open', type: 'tokens', channel_type: 1, input: 1, output: 1 },
        after: { model: 'ps-open', type: 'tokens', channel_type: 1, input: 3, output: 6, tiers: [{ above: 200000, input: 6, output: 9 }] },
      },
    ]);
    const overwrite = (await f.root.post('/api/prices/sync/preview', { url, updateMode: 'overwrite' })).body.data;
    expect(overwrite.added.map((p: { model: string }) => p.model)).toEqual(['ps-new']);
    // Overwrite drops every unlocked price the list does not carry (the seeded ones too); locked ones stay.
    expect(overwrite.removed.map((p: { model: string }) => p.model)).toContain('gpt-4o');
    expect(overwrite.removed.map((p: { model: string }) => p.model)).not.toContain('ps-locked');
    expect((await price('ps-open')).input).toBe(1);
    expect(await price('ps-new')).toBeUndefined();
    expect(await audits()).toHaveLength(0);
  });

  it('applies the diff, never touches a locked price, and writes one audit entry with the diff; an empty diff writes none', async () => {
    const applied = (await f.root.post('/api/prices/sync/apply', { updateMode: 'add' })).body.data;
    expect(applied.added.map((p: { model: string }) => p.model)).toEqual(['ps-new']);
    expect((await price('ps-new')).input).toBe(0.5);
    const again = await f.root.post('/api/prices/sync/apply', { updateMode: 'add' });
    expect(again.body.data).toMatchObject({ added: [], changed: [], removed: [] });
    const [entry, ...rest] = await audits();
    expect(rest).toHaveLength(0);
    expect(entry).toMatchObject({ actor_name: 'root', target_kind: 'price', action: 'sync' });
    expect(entry.diff).toMatchObject({ url, mode: 'add', added: [{ model: 'ps-new', type: 'times' }], changed: [], removed: [] });

    await f.root.post('/api/prices/sync/apply', { updateMode: 'update' });
    expect(await price('ps-open')).toMatchObject({ input: 3, output: 6, tiers: [{ above: 200000, input: 6, output: 9 }] });
    expect((await price('ps-locked')).input).toBe(1);
    expect(await audits()).toHaveLength(2);
  });

  it('refuses bad input with a 400, a broken list with a 502, and non-admins with a 403', async () => {
    expect((await f.root.post('/api/prices/sync/preview', { updateMode: 'merge' })).status).toBe(400);
    expect((await f.root.post('/api/prices/sync/preview', { url: 'ftp://x/prices.json', updateMode: 'add' })).status).toBe(400);
    list.answer = { status: 200, body: { data: [{ model: 'x', type: 'weird' }] } };
    const broken = await f.root.post('/api/prices/sync/preview', { updateMode: 'add' });
    expect(broken.status).toBe(502);
    expect(broken.body.message).toContain('price list rejected');
    list.answer = { status: 500, body: 'down' };
    expect((await f.root.post('/api/prices/sync/apply', { updateMode: 'add' })).body.message).toContain('HTTP 500');
    list.answer = undefined;
    const { client } = await f.newUser();
    expect((await client.post('/api/prices/sync/preview', { updateMode: 'add' })).status).toBe(403);
  });

  it('the scheduled job syncs through the same code and is audited as system', async () => {
    list.prices = [{ model: 'ps-open', type: 'tokens', channel_type: 1, input: 4, output: 8 }];
    expect(await jobRunner(f.server.ctx).run('price_sync')).toBe(true);
    expect((await price('ps-open')).input).toBe(4);
    const entry = (await audits())[0];
    expect(entry).toMatchObject({ actor_name: 'system', actor_id: 0, diff: { mode: 'update', changed: [{ model: 'ps-open', after: { input: 4 } }] } });
  });
});
