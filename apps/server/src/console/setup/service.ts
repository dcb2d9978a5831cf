import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { ChannelBody, SETUP_TOKEN_TTL_SECONDS, type SetupBody, type SetupResult } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { findRootUser, usernameTaken } from '../../db/repos/users.js';
import type { Db } from '../../db/index.js';
import { hashPassword } from '../user/passwords.js';
import { insertRootUser } from '../user/seed.js';
import { createChannels } from '../channel/service.js';
import { testChannel } from '../../relay/channel-ops.js';

/**
 * The guarded first run (issue 39 point 3). With no root user and no INITIAL_ROOT_PASSWORD the
 * master prints a one-time link; only the token's SHA-256 and its expiry are stored, in an options
 * row no option list shows (every node reads it from the table, so any node may answer the setup).
 */
export const SETUP_TOKEN_KEY = 'SetupToken';
const FIRST_CHANNEL_NAME = 'first-channel';

interface StoredToken {
  hash: string;
  expires_at: number;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Root exists (setup done) is permanent for a node once seen; until then each question reads the table. */
const rootSeen = new WeakMap<AppContext, true>();

export async function setupRequired(ctx: AppContext): Promise<boolean> {
  if (rootSeen.has(ctx)) return false;
  if (await findRootUser(ctx.db)) {
    rootSeen.set(ctx, true);
    return false;
  }
  return true;
}

async function readStored(db: Db): Promise<{ raw: string; token: StoredToken } | undefined> {
  const row = await db.selectFrom('options').select('value').where('key', '=', SETUP_TOKEN_KEY).executeTakeFirst();
  if (!row?.value) return undefined;
  try {
    const token = JSON.parse(row.value) as StoredToken;
    if (typeof token.hash !== 'string' || typeof token.expires_at !== 'number') return undefined;
    return { raw: row.value, token };
  } catch {
    return undefined;
  }
}

/** A fresh token replaces any earlier one (a restart while unused prints a new link). Answers the token itself. */
export async function issueSetupToken(ctx: AppContext): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const value = JSON.stringify({ hash: digest(token), expires_at: nowSeconds() + SETUP_TOKEN_TTL_SECONDS } satisfies StoredToken);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('options').where('key', '=', SETUP_TOKEN_KEY).execute();
    await trx.insertInto('options').values({ key: SETUP_TOKEN_KEY, value }).execute();
  });
  return token;
}

/** The link printed in the log: the server address (stored, or http://localhost:PORT) + /setup?token=… */
export function setupLink(ctx: AppContext, token: string): string {
  const base = ctx.options.get('ServerAddress').replace(/\/+$/, '') || `http://localhost:${ctx.config.PORT}`;
  return `${base}/setup?token=${token}`;
}

/** Start-up (master): no root and no INITIAL_ROOT_PASSWORD → a new one-time link in the log, as one line. */
export async function offerSetup(ctx: AppContext): Promise<void> {
  if (!(await setupRequired(ctx))) return;
  const token = await issueSetupToken(ctx);
  const hours = SETUP_TOKEN_TTL_SECONDS / 3600;
  ctx.log.warn(
    `first run: no root user yet; open ${setupLink(ctx, token)} to choose the root account (valid for ${hours} hour or until used; a restart prints a new link)`,
  );
}

/** The stored row when `token` matches it and has not expired; a refusal otherwise. */
async function validToken(ctx: AppContext, token: string): Promise<string> {
  if (!(await setupRequired(ctx))) throw apiError(403, 'setup_done');
  const stored = await readStored(ctx.db);
  const given = Buffer.from(digest(token), 'hex');
  const known = stored ? Buffer.from(stored.token.hash, 'hex') : Buffer.alloc(0);
  const matches = known.length === given.length && timingSafeEqual(known, given);
  if (!stored || !matches || stored.token.expires_at <= nowSeconds()) throw apiError(403, 'setup_token_invalid');
  return stored.raw;
}

/** GET /api/setup: the link is still good; answers the current values for the form to start from. */
export async function checkSetup(ctx: AppContext, token: string): Promise<{ system_name: string; server_address: string }> {
  await validToken(ctx, token);
  return { system_name: ctx.options.get('SystemName'), server_address: ctx.options.get('ServerAddress') };
}

/**
 * POST /api/setup: creates root with the chosen name and password, sets SystemName and ServerAddress,
 * consumes the token (one transaction: a failed insert keeps the link usable), then creates and
 * tests the optional first channel. A failing channel test is reported, the setup stands.
 */
export async function runSetup(ctx: AppContext, body: z.infer<typeof SetupBody>): Promise<SetupResult> {
  const raw = await validToken(ctx, body.token);
  if (await usernameTaken(ctx.db, body.username)) {
    throw apiError(409, 'username_taken', undefined, { fields: [{ path: 'username', code: 'invalid_value', message: '用户名已存在！' }] });
  }
  const password = await hashPassword(body.password);
  await ctx.db.transaction().execute(async (trx) => {
    // Exactly one caller deletes the row it read: a second use of the same link finds nothing.
    const used = await trx.deleteFrom('options').where('key', '=', SETUP_TOKEN_KEY).where('value', '=', raw).executeTakeFirst();
    if (Number(used.numDeletedRows) !== 1) throw apiError(403, 'setup_token_invalid');
    if (await findRootUser(trx)) throw apiError(403, 'setup_done');
    await insertRootUser(trx, body.username, password);
  });
  rootSeen.set(ctx, true);
  await ctx.options.save({ SystemName: body.system_name, ServerAddress: body.server_address });
  ctx.log.info(`first run: setup done, root user "${body.username}" created`);
  const result: SetupResult = { username: body.username };
  if (body.channel) result.channel = await firstChannel(ctx, body.channel);
  return result;
}

async function firstChannel(ctx: AppContext, channel: NonNullable<z.infer<typeof SetupBody>['channel']>): Promise<SetupResult['channel']> {
  const body = ChannelBody.parse({ ...channel, name: FIRST_CHANNEL_NAME, group: 'default' });
  await createChannels(ctx, body);
  const row = await ctx.db
    .selectFrom('channels')
    .selectAll()
    .where('name', '=', FIRST_CHANNEL_NAME)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  try {
    const tested = await testChannel(ctx, row);
    return { id: row.id, success: tested.success, message: tested.message, time: tested.time };
  } catch (error) {
    return { id: row.id, success: false, message: (error as Error).message, time: 0 };
  }
}
