import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeRecraft } from '../fakes/recraft.js';
import { addPrices, balances } from './task-fixture.js';

// The task rows and refunds these share are covered on every dialect by suno-kling.test.ts; SQLite keeps CI short.
describe.each(testDialects().slice(0, 1))('Recraft per-call tools on %s', (dialect) => {
  let f: RelayFixture;
  let fake: FakeRecraft;

  beforeAll(async () => {
    fake = new FakeRecraft();
    await fake.start();
    f = await relayFixture(dialect);
    fake.behave('rc-key', {});
    await f.addChannel({ type: 51, key: 'rc-key', base_url: fake.url, models: 'recraft_vectorize,recraft_styles,recraftv3' });
    await addPrices(f, { recraft_vectorize: 0.04, recraft_styles: 0.01, recraftv3: 0.04 });
  });
  afterAll(async () => {
    await f?.close();
    await fake?.close();
  });

  const form = (fields: Record<string, string | Blob>) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    return fd;
  };

  it('bills each tool call once as recraft_<tool>, forwards it without the prefix and charges nothing upstream refused', async () => {
    const u = await f.newUser({ quota: 10_000 });
    const post = (path: string, body: FormData) => fetch(`${f.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${u.key}` }, body });
    const ok = await post('/recraftAI/v1/images/vectorize', form({ file: new Blob(['PIXELS']) }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ image: { url: `${fake.url}/out/vectorize-6.png` } });
    expect(fake.received.at(-1)).toMatchObject({ path: '/v1/images/vectorize', key: 'rc-key' });
    const style = await post('/recraftAI/v1/styles', form({ style: 'digital_illustration', file: new Blob(['A']) }));
    expect(await style.json()).toEqual({ id: 'style-1' });
    expect(await balances(f, u.userId, u.tokenId)).toMatchObject({ quota: 10_000 - 40 - 10 });
    const refused = await post('/recraftAI/v1/images/vectorize', form({ other: 'x' }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toContain('file required');
    expect((await post('/recraftAI/v1/images/removeBackground', form({ file: new Blob(['A']) }))).status).toBe(503);
    expect(await balances(f, u.userId, u.tokenId)).toMatchObject({ quota: 10_000 - 50 });
    const logs = await f.server.ctx.db.selectFrom('logs').select(['model_name', 'quota']).where('user_id', '=', u.userId).where('type', '=', 2).orderBy('id').execute();
    expect(logs).toEqual([{ model_name: 'recraft_vectorize', quota: 40 }, { model_name: 'recraft_styles', quota: 10 }]);
  });

  it('serves image generation through the OpenAI image pipeline', async () => {
    const u = await f.newUser({ quota: 100_000 });
    const res = await f.server.app.inject({ method: 'POST', url: '/recraftAI/v1/images/generations', headers: { authorization: `Bearer ${u.key}` }, payload: { model: 'recraftv3', prompt: 'a logo' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0].url).toBe(`${fake.url}/out/gen.webp`);
    expect(fake.received.at(-1)).toMatchObject({ path: '/v1/images/generations', key: 'rc-key' });
  });
});
