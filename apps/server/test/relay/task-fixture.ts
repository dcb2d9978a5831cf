import { relayState } from '../../src/relay/state.js';
import { taskPollers } from '../../src/relay/tasks/registry.js';
import type { RelayFixture } from './fixture.js';

/** Waits until `probe` answers something truthy (polling the API, no fixed sleeps). */
export async function until<T>(probe: () => Promise<T>, what: string, timeoutMs = 5_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Balances as the database holds them once every charge is written and every lease returned. */
export async function balances(f: RelayFixture, userId: number, tokenId: number) {
  await f.flush();
  const db = f.server.ctx.db;
  const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', userId).executeTakeFirstOrThrow();
  const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
  return { quota: user.quota, used: user.used_quota, tokenRemain: token.remain_quota, tokenUsed: token.used_quota };
}

export const pollers = (f: RelayFixture) => taskPollers(relayState(f.server.ctx));

export async function addPrices(f: RelayFixture, prices: Record<string, number>) {
  for (const [model, input] of Object.entries(prices)) {
    await f.server.ctx.db.insertInto('prices').values({ model, type: 'times', channel_type: 34, input, output: 0 }).execute();
  }
  await relayState(f.server.ctx).prices.load();
}

export async function logsLike(f: RelayFixture, userId: number, pattern: string) {
  await f.flush();
  return f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('content', 'like', pattern).execute();
}

/**
 * Fetches a file a fake sends in two parts (64 KiB, then the rest once its `gate` opens) and
 * reads the first part while the gate is still shut: a server that buffered the file would
 * never answer it, and the read times out. Answers the response and the text after the gate.
 */
export async function readStreamedWhileHeld(fake: { gate: Promise<void> }, request: () => Promise<Response>): Promise<{ res: Response; tail: string }> {
  let open!: () => void;
  fake.gate = new Promise((r) => (open = r));
  const res = await request();
  const reader = res.body!.getReader();
  let received = 0;
  while (received < 64 * 1024) received += (await reader.read()).value!.length;
  open();
  let tail = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) tail += Buffer.from(r.value).toString();
  return { res, tail };
}
