import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayFixture, type RelayFixture } from './fixture.js';

/**
 * A change notice drops the callers it names and keeps the rest: one user's top-up or ban must not
 * send every other active caller back to the database. A row changed behind the gateway's back (no
 * notice) shows which entries were kept: a kept caller still answers from its cached rows.
 */
describe('caller cache: a notice drops only the token or user it names', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture('sqlite');
    await f.addChannel({});
  });
  afterAll(() => f?.close());

  const ask = (key: string) => f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] });
  const refused = async (key: string) => {
    const error = await ask(key).then(
      () => undefined,
      (e: { status?: number }) => e,
    );
    return error?.status;
  };
  /** Disables a token in the database without telling the gateway. */
  const disableQuietly = (tokenId: number) => f.server.ctx.db.updateTable('tokens').set({ status: 2 }).where('id', '=', tokenId).execute();

  it('a user change refuses that user at once and leaves other callers cached', async () => {
    const a = await f.newUser({ quota: 1_000_000 });
    const b = await f.newUser({ quota: 1_000_000 });
    await ask(a.key);
    await ask(b.key);
    await disableQuietly(b.tokenId);

    expect((await f.root.post('/api/user/manage', { username: (await a.client.get('/api/user/self')).body.data.username, action: 'disable' })).body.success).toBe(true);
    expect(await refused(a.key)).toBe(401);
    // B's entry was not dropped by A's notice: its quiet disable is not seen yet.
    await expect(ask(b.key)).resolves.toBeTruthy();
  });

  it('a token change refuses that token at once and leaves the owner’s other tokens and other users cached', async () => {
    const c = await f.newUser({ quota: 1_000_000 });
    const d = await f.newUser({ quota: 1_000_000 });
    const second = await c.client.post('/api/token/', { name: 'second', unlimited_quota: true });
    expect(second.body.success).toBe(true);
    const list = (await c.client.get('/api/token/')).body.data.data as Array<{ id: number; key: string }>;
    const other = list.find((t) => t.id !== c.tokenId)!;
    await ask(c.key);
    await ask(`sk-${other.key}`);
    await ask(d.key);
    await disableQuietly(other.id);
    await disableQuietly(d.tokenId);

    expect((await c.client.put('/api/token/?status_only=1', { id: c.tokenId, status: 2 })).body.success).toBe(true);
    expect(await refused(c.key)).toBe(401);
    await expect(ask(`sk-${other.key}`)).resolves.toBeTruthy();
    await expect(ask(d.key)).resolves.toBeTruthy();
  });

  it('a notice naming no id drops every caller', async () => {
    const e = await f.newUser({ quota: 1_000_000 });
    await ask(e.key);
    await disableQuietly(e.tokenId);
    await f.server.ctx.store.publish('tokens:changed', '');
    expect(await refused(e.key)).toBe(401);
  });
});
