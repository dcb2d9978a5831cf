import { ROLE, USER_STATUS } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { randomAlnum, uuidHex } from '../../common/random.js';
import { nowSeconds } from '../../common/time.js';
import { countLiveUsers, insertUser } from '../../db/repos/users.js';
import { hashPassword } from './passwords.js';

export const ROOT_QUOTA = 100_000_000;

/**
 * Creates the root account on an empty users table. Its password is
 * INITIAL_ROOT_PASSWORD, or a random one printed once (never the original's 123456).
 */
export async function ensureRootUser(ctx: AppContext): Promise<void> {
  if ((await countLiveUsers(ctx.db)) > 0) return;
  const given = ctx.config.INITIAL_ROOT_PASSWORD;
  const password = given || randomAlnum(16);
  try {
    await insertUser(ctx.db, {
      username: 'root',
      password: await hashPassword(password),
      display_name: 'Root User',
      role: ROLE.root,
      status: USER_STATUS.enabled,
      access_token: uuidHex(),
      quota: ROOT_QUOTA,
      created_time: nowSeconds(),
    });
  } catch (error) {
    if ((await countLiveUsers(ctx.db)) > 0) return; // another node created it first
    throw error;
  }
  if (given) ctx.log.info('created the root user with the password from INITIAL_ROOT_PASSWORD');
  else ctx.log.warn(`created the root user; sign in as "root" with password: ${password} (shown only this once; change it)`);
}
