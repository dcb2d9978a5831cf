import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomAlnum } from '../../src/common/random.js';
import { isLockConflict, lockConflicts } from '../../src/db/retry.js';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';

const USERS = 1000;
const REQUESTS = Number(process.env.DEADLOCK_TEST_REQUESTS ?? 1500);
const CONCURRENCY = 50;
const START_QUOTA = 1_000_000_000;
const TOKEN_QUOTA = 100_000_000;

/** 1 000 users, each with a limited token, written straight to the tables (registering them would take minutes). */
async function seedUsers(f: RelayFixture): Promise<Array<{ userId: number; tokenId: number; key: string }>> {
  const db = f.server.ctx.db;
  const tag = randomAlnum(6).toLowerCase();
  for (let i = 0; i < USERS; i += 250) {
    const rows = Array.from({ length: Math.min(250, USERS - i) }, (_, j) => ({ username: `dl${tag}${i + j}`, password: 'x', quota: START_QUOTA, group: 'default' }));
    await db.insertInto('users').values(rows).execute();
  }
  const users = await db.selectFrom('users').select('id').where('username', 'like', `dl${tag}%`).orderBy('id').execute();
  const tokens = users.map((u) => ({ user_id: Number(u.id), key: randomAlnum(48), name: 't', remain_quota: TOKEN_QUOTA, unlimited_quota: 0, expired_time: -1 }));
  for (let i = 0; i < tokens.length; i += 250) await db.insertInto('tokens').values(tokens.slice(i, i + 250)).execute();
  const rows = await db.selectFrom('tokens').select(['id', 'user_id', 'key']).where('user_id', 'in', users.map((u) => Number(u.id))).execute();
  return rows.map((r) => ({ userId: Number(r.user_id), tokenId: Number(r.id), key: `sk-${r.key}` }));
}

/**
 * Lock conflicts the server logged. A deadlock in a background job (the counter flush, lease
 * upkeep) reaches no status code: the job logs it and tries again later, so only the log shows it.
 */
function loggedLockConflicts(f: RelayFixture): string[] {
  const seen: string[] = [];
  const log = f.server.ctx.log;
  for (const level of ['warn', 'error'] as const) {
    const write = log[level].bind(log);
    log[level] = ((obj: unknown, ...rest: unknown[]) => {
      const err = (obj as { err?: unknown } | undefined)?.err ?? obj;
      if (isLockConflict(err)) seen.push(`${String(rest[0])}: ${(err as Error).message}`);
      return write(obj as never, ...(rest as []));
    }) as typeof log.warn;
  }
  return seen;
}

const total = async (f: RelayFixture, ids: number[]) => {
  const db = f.server.ctx.db;
  const u = await db
    .selectFrom('users')
    .select((eb) => [eb.fn.sum<number>('quota').as('q'), eb.fn.sum<number>('used_quota').as('used'), eb.fn.sum<number>('request_count').as('n')])
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  const leased = await db
    .selectFrom('quota_leases')
    .select((eb) => eb.fn.sum<number>('amount').as('a'))
    .where('owner_kind', '=', 1)
    .where('owner_id', 'in', ids)
    .executeTakeFirst();
  return { quota: Number(u.q), used: Number(u.used), requests: Number(u.n), leased: Number(leased?.a ?? 0) };
};

// Issue 25.1: the relay's lease takes and returns, the counter flush, renewals and an admin's
// deductions all lock users → tokens → lease rows → channels in id order, so none waits on
// another the other way round. The retry in db/retry.ts would hide a deadlock from callers;
// here its counter must stay at zero: no deadlock happened at all.
describe.each(testDialects())('1 000 users at 50 concurrent requests never deadlock (%s)', (dialect) => {
  let f: RelayFixture;
  let people: Awaited<ReturnType<typeof seedUsers>>;
  let conflicts: string[];
  beforeAll(async () => {
    // Fast flushes and idle returns, renewals every 10 s, so every kind of transaction overlaps the
    // traffic (a TTL much shorter would let a loaded test machine's own slow ticks expire its slices).
    f = await relayFixture(dialect, { BATCH_FLUSH_MS: '20', QUOTA_LEASE_TTL_SECONDS: '30', QUOTA_LEASE_IDLE_SECONDS: '1', QUOTA_LEASE_SLICE_SECONDS: '0.2' });
    await f.addChannel({ key: 'dl-key-1' });
    await f.addChannel({ key: 'dl-key-2' });
    people = await seedUsers(f);
    conflicts = loggedLockConflicts(f);
  }, 120_000);
  afterAll(() => f?.close());

  it('serves every request (no 5xx), retries no deadlock, and keeps every unit of quota', async () => {
    const before = lockConflicts.retried;
    const statuses = new Map<number, number>();
    let next = 0;
    let adminDelta = 0;
    let trafficDone = false;
    let firstRefusal = '';
    const worker = async () => {
      while (next < REQUESTS) {
        const who = people[(next++ * 7919) % people.length];
        const res = await fetch(`${f.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${who.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 20 }),
        });
        const text = await res.text();
        if (res.status !== 200 && !firstRefusal) firstRefusal = text;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    // Meanwhile an admin takes from and adds to balances (a deduction revokes every lease of the user).
    const admin = async () => {
      for (let i = 0; !trafficDone; i++) {
        const who = people[(i * 104729) % people.length];
        const quota = i % 2 ? 5 : -5;
        const res = await f.root.post(`/api/user/quota/${who.userId}`, { quota });
        expect(res.status).toBe(200);
        adminDelta += quota;
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const adminRun = admin();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    trafficDone = true;
    await adminRun;
    await f.flush();

    expect({ ...Object.fromEntries(statuses), firstRefusal }).toEqual({ 200: REQUESTS, firstRefusal: '' });
    expect(lockConflicts.retried - before).toBe(0);
    expect(conflicts).toEqual([]);
    const after = await total(
      f,
      people.map((p) => p.userId),
    );
    expect(after.requests).toBe(REQUESTS);
    // Balance + what slices still hold + used quota: every unit accounted for.
    expect(after.quota + after.leased + after.used).toBe(USERS * START_QUOTA + adminDelta);
  }, 180_000);
});
