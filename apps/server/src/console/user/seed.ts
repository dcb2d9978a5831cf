import { ROLE, USER_STATUS } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { uuidHex } from '../../common/random.js';
import { nowSeconds } from '../../common/time.js';
import { findRootUser, insertUser } from '../../db/repos/users.js';
import { hashPassword } from './passwords.js';
import type { Db } from '../../db/index.js';

export const ROOT_QUOTA = 100_000_000;

/** Inserts the root account (INITIAL_ROOT_PASSWORD or the setup page), its password already hashed. */
export function insertRootUser(db: Db, username: string, passwordHash: string): Promise<void> {
  return insertUser(db, {
    username,
    password: passwordHash,
    display_name: 'Root User',
    role: ROLE.root,
    status: USER_STATUS.enabled,
    access_token: uuidHex(),
    quota: ROOT_QUOTA,
    created_time: nowSeconds(),
  });
}

/**
 * Makes sure a root account exists when it can: one exists already, or INITIAL_ROOT_PASSWORD
 * (automation) creates "root" with it. Answers false when neither: the first run then waits for
 * the one-time setup link (console/setup), never a random password in the log.
 */
export async function ensureRootUser(ctx: AppContext): Promise<boolean> {
  if (await findRootUser(ctx.db)) return true;
  const given = ctx.config.INITIAL_ROOT_PASSWORD;
  if (!given) return false;
  try {
    await insertRootUser(ctx.db, 'root', await hashPassword(given));
  } catch (error) {
    if (await findRootUser(ctx.db)) return true; // another node created it first
    throw error;
  }
  ctx.log.info('created the root user with the password from INITIAL_ROOT_PASSWORD');
  return true;
}
