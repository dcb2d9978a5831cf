import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayState } from '../../src/relay/state.js';
import { sql } from 'kysely';
import { wholeUserQuota } from '../../src/db/repos/quota-leases.js';
import type { LeaseBook } from '../../src/relay/pipeline/accounting/leases.js';

const USERS = 2_000;
const HOLD = 1_500;

/** Users with small balances, written in a few multi-row inserts; answers their ids and balances. */
async function seedUsers(server: TestServer, prefix: string, quotaOf: (i: number) => number): Promise<Map<number, number>> {
  const rows = Array.from({ length: USERS }, (_, i) => ({
    username: `${prefix}${i}`,
    password: 'x',
    display_name: `${prefix}${i}`,
    role: 1,
    status: 1,
    quota: quotaOf(i),
    group: 'default',
    aff_code: `${prefix}${i}`,
    created_time: 1,
  }));
  for (let i = 0; i < rows.length; i += 200) await server.ctx.db.insertInto('users').values(rows.slice(i, i + 200)).execute();
  const made = await server.ctx.db.selectFrom('users').select(['id', 'quota']).where('username', 'like', `${prefix}%`).execute();
  return new Map(made.map((r) => [Number(r.id), Number(r.quota)]));
}

/**
 * Each user's balance column, what leases hold of it, and its used quota, in one statement: the
 * node's own upkeep may move a slice back meanwhile, and two reads could see it on neither side.
 */
async function books(server: TestServer, ids: number[]) {
  const users = await server.ctx.db
    .selectFrom('users')
    .select(['id', 'quota', 'used_quota', 'request_count', sql<number>`${wholeUserQuota} - users.quota`.as('leased')])
    .where('id', 'in', ids)
    .execute();
  return new Map(users.map((u) => [Number(u.id), { quota: Number(u.quota), used: Number(u.used_quota), requests: Number(u.request_count), leased: Number(u.leased) }]));
}

/** The once-a-second upkeep, run by hand (no waiting on the clock). */
const tick = (leases: LeaseBook) => (leases as unknown as { tick(): Promise<void> }).tick();

describe.each(testDialects())('many users, small balances: the books balance (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { env: { BATCH_FLUSH_MS: '60000', QUOTA_LEASE_IDLE_SECONDS: '1', QUOTA_LEASE_KEEP_SECONDS: '3600' } });
  });
  afterAll(() => server?.close());

  it('spends no more than each of 2 000 users has under concurrent holds, and every unit is accounted for', async () => {
    // Balances of 2, 3 or 4 holds; five holds per user arrive at once, all users together.
    const start = await seedUsers(server, `many${dialect}`, (i) => HOLD * (2 + (i % 3)) + (i % 7));
    const ids = [...start.keys()];
    const { leases, recorder } = relayState(server.ctx);
    const served = new Map<number, number>();
    const billed = new Map<number, number>();
    await Promise.all(
      ids.flatMap((userId) =>
        Array.from({ length: 5 }, async (_, k) => {
          const h = await leases.hold(userId, 0, false, HOLD);
          if (typeof h === 'string') return;
          // Costs below, at and above the hold: the excess is taken only as far as the slice has it free.
          const paid = leases.settle(h, [HOLD - 500, HOLD, HOLD + 200, 1, 0][k]);
          recorder.settle({ userId, tokenId: 0, unlimited: true, channelId: 0, billed: paid, spend: leases.spendTargets(h) });
          served.set(userId, (served.get(userId) ?? 0) + 1);
          billed.set(userId, (billed.get(userId) ?? 0) + paid);
        }),
      ),
    );
    await recorder.flush();
    // Slices still out: the column is lower, but column + leased + used is each user's balance to the unit.
    const during = await books(server, ids);
    for (const id of ids) {
      const b = during.get(id)!;
      expect(b.quota + b.leased + b.used).toBe(start.get(id));
      expect(b.used).toBe(billed.get(id) ?? 0);
    }
    await leases.settleUp();
    const after = await books(server, ids);
    for (const id of ids) {
      const b = after.get(id)!;
      // A hold settled below its amount gives the rest back at once, so later holds may be served; the spend never passes the balance.
      expect(billed.get(id) ?? 0).toBeLessThanOrEqual(start.get(id)!);
      expect(b).toEqual({ quota: start.get(id)! - (billed.get(id) ?? 0), used: billed.get(id) ?? 0, requests: served.get(id) ?? 0, leased: 0 });
    }
  });

  it('keeps an idle slice the balance covers (the next hold costs no lease round trip) and gives back one it does not', async () => {
    const start = await seedUsers(server, `keep${dialect}`, (i) => (i % 2 ? 1_000_000 : HOLD * 4));
    const ids = [...start.keys()];
    const { leases } = relayState(server.ctx);
    for (const userId of ids) {
      const h = await leases.hold(userId, 0, false, HOLD);
      if (typeof h === 'string') throw new Error(`user ${userId} refused`);
      leases.settle(h, 0);
    }
    // Past QUOTA_LEASE_IDLE_SECONDS without a hold: a slice is idle.
    for (let i = 0; i < 3; i++) await tick(leases);
    // A user whose whole balance went into the slice gets it back (the node's own timer may be returning it still).
    const lean = ids.filter((id) => start.get(id)! <= HOLD * 4);
    await expect.poll(async () => [...(await books(server, lean)).values()].filter((b) => b.leased > 0).length).toBe(0);
    const idle = await books(server, ids);
    for (const id of ids) {
      const b = idle.get(id)!;
      expect(b.quota + b.leased).toBe(start.get(id));
      // A rich user's slice stays out: the column still covers as much for another node.
      if (start.get(id)! > HOLD * 4) expect(b.leased).toBeGreaterThan(0);
    }
    await leases.settleUp();
    const after = await books(server, ids);
    for (const id of ids) expect(after.get(id)).toMatchObject({ quota: start.get(id), leased: 0 });
  });
});
