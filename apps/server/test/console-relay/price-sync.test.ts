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

  const preview = async (updateMode: string) => (await f.root.post('/api/prices/sync/preview', { updateMode })).body.data;
  const previewAndApply = async (updateMode: string) => (await f.root.post('/api/prices/sync/apply', await preview(updateMode))).body.data;

  it('applies the diff, never touches a locked price, and writes one audit entry with the diff; an empty diff writes none', async () => {
    const applied = await previewAndApply('add');
    expect(applied.added.map((p: { model: string }) => p.model)).toEqual(['ps-new']);
    expect((await price('ps-new')).input).toBe(0.5);
    const again = await previewAndApply('add');
    expect(again).toMatchObject({ added: [], changed: [], removed: [] });
    const [entry, ...rest] = await audits();
    expect(rest).toHaveLength(0);
    expect(entry).toMatchObject({ actor_name: 'root', target_kind: 'price', action: 'sync' });
    expect(entry.diff).toMatchObject({ url, mode: 'add', added: [{ model: 'ps-new', type: 'times' }], changed: [], removed: [] });

    await previewAndApply('update');
    expect(await price('ps-open')).toMatchObject({ input: 3, output: 6, tiers: [{ above: 200000, input: 6, output: 9 }] });
    expect((await price('ps-locked')).input).toBe(1);
    expect(await audits()).toHaveLength(2);
  });

  it('applies exactly the previewed list without fetching again; a stale or altered preview is refused and changes nothing', async () => {
    list.prices = [{ model: 'ps-open', type: 'tokens', channel_type: 1, input: 5, output: 5 }, { model: 'ps-later', type: 'tokens', channel_type: 1, input: 1, output: 1 }];
    const seen = await preview('update');
    expect(seen.digest).toMatch(/^[0-9a-f]{64}$/);
    // The source changes between the preview and the apply: what was previewed is applied.
    list.prices = [{ model: 'ps-open', type: 'tokens', channel_type: 1, input: 7, output: 7 }];
    const fetches = list.received.length;
    const applied = await f.root.post('/api/prices/sync/apply', seen);
    expect(applied.status).toBe(200);
    expect(list.received.length).toBe(fetches);
    expect(await price('ps-open')).toMatchObject({ input: 5, output: 5 });

    // An entry altered after the preview no longer matches its digest.
    list.prices = [{ model: 'ps-x', type: 'tokens', channel_type: 1, input: 1, output: 1 }];
    const adding = await preview('add');
    const altered = await f.root.post('/api/prices/sync/apply', { ...adding, added: [{ ...adding.added[0], input: 0 }] });
    expect(altered.status).toBe(400);
    expect(altered.body.message).toContain('does not match its preview');
    expect((await f.root.post('/api/prices/sync/apply', { ...adding, digest: undefined })).status).toBe(400);
    // The same preview applied twice at once: one applies it, the other is told it is stale.
    const twice = await Promise.all([f.root.post('/api/prices/sync/apply', adding), f.root.post('/api/prices/sync/apply', adding)]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await price('ps-x')).toMatchObject({ input: 1 });

    // A stored price changed since the preview: 409, and nothing of the preview is written.
    list.prices = [{ model: 'ps-open', type: 'tokens', channel_type: 1, input: 8, output: 8 }, { model: 'ps-y', type: 'tokens', channel_type: 1, input: 1, output: 1 }];
    // A row stored before today's checks (an unknown ratio class) is only compared: the apply still parses.
    await f.server.ctx.db.insertInto('prices').values({ model: 'ps-legacy', type: 'tokens', input: 1, output: 1, extra_ratios: '{"legacy_class":2}' }).execute();
    const stale = await preview('overwrite');
    expect(stale.removed.map((p: { model: string }) => p.model)).toContain('ps-legacy');
    await f.root.put('/api/prices/single/ps-open', { model: 'ps-open', type: 'tokens', channel_type: 1, input: 6, output: 6 });
    const refused = await f.root.post('/api/prices/sync/apply', stale);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('ps-open');
    expect(await price('ps-open')).toMatchObject({ input: 6 });
    expect(await price('ps-y')).toBeUndefined();
    expect(await price('gpt-4o')).toBeTruthy();
  });

  it('refuses bad input with a 400, a broken list with a 502, and non-admins with a 403', async () => {
    expect((await f.root.post('/api/prices/sync/preview', { updateMode: 'merge' })).status).toBe(400);
    expect((await f.root.post('/api/prices/sync/preview', { url: 'ftp://x/prices.json', updateMode: 'add' })).status).toBe(400);
    list.answer = { status: 200, body: { data: [{ model: 'x', type: 'weird' }] } };
    const broken = await f.root.post('/api/prices/sync/preview', { updateMode: 'add' });
    expect(broken.status).toBe(502);
    expect(broken.body.message).toContain('price list rejected');
    list.answer = { status: 500, body: 'down' };
    expect((await f.root.post('/api/prices/sync/preview', { updateMode: 'add' })).body.message).toContain('HTTP 500');
    list.answer = undefined;
    const { client } = await f.newUser();
    expect((await client.post('/api/prices/sync/preview', { updateMode: 'add' })).status).toBe(403);
    expect((await client.post('/api/prices/sync/apply', {})).status).toBe(403);
  });

  it('the scheduled job syncs through the same code and is audited as system', async () => {
    list.prices = [{ model: 'ps-open', type: 'tokens', channel_type: 1, input: 4, output: 8 }];
    expect(await jobRunner(f.server.ctx).run('price_sync')).toBe(true);
    expect((await price('ps-open')).input).toBe(4);
    const entry = (await audits())[0];
    expect(entry).toMatchObject({ actor_name: 'system', actor_id: 0, diff: { mode: 'update', changed: [{ model: 'ps-open', after: { input: 4 } }] } });
  });
});
