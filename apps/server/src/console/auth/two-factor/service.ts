import { createHash } from 'node:crypto';
import type { AppContext } from '../../../app-context.js';
import { HubError, apiError } from '../../../common/errors.js';
import { randomHex } from '../../../common/random.js';
import { ROLE } from '../../../http/auth.js';
import { findUserById, type UserRow } from '../../../db/repos/users.js';
import * as repo from '../../../db/repos/two-factor.js';
import { matchStep, newSecret, otpauthUri } from './totp.js';
import { isSealed, seal, unseal } from '../../../common/seal.js';
import { clearGuessLimit, limitedCheck } from './guess-limit.js';

export const RECOVERY_CODES = 10;
const digest = (code: string) => createHash('sha256').update(code.toLowerCase().replaceAll('-', '')).digest('hex');

/** The base32 secret of a row; a secret sealed under another session secret reads as none (no code matches). */
function secretOf(ctx: AppContext, row: repo.TwoFactorRow): string | null {
  try {
    return unseal(ctx.twoFactorKey, row.secret);
  } catch {
    ctx.log.warn({ userId: row.user_id }, 'two-factor secret cannot be unsealed (SESSION_SECRET changed?); an admin can reset it');
    return null;
  }
}

/** Seals secrets stored in plain text before encryption at rest (start-up, master node). */
export async function sealPlainSecrets(ctx: AppContext): Promise<void> {
  for (const row of await repo.listPlainSecrets(ctx.db)) {
    if (!isSealed(row.secret)) await repo.replaceSecret(ctx.db, row.user_id, row.secret, seal(ctx.twoFactorKey, row.secret));
  }
}

const stepOf = (ctx: AppContext, row: repo.TwoFactorRow, code: string) => {
  const secret = secretOf(ctx, row);
  return secret === null ? null : matchStep(secret, code, Date.now());
};

export async function twoFactorEnabled(ctx: AppContext, userId: number): Promise<boolean> {
  return (await repo.findTwoFactor(ctx.db, userId))?.enabled === 1;
}

export async function twoFactorStatus(ctx: AppContext, user: UserRow) {
  const row = await repo.findTwoFactor(ctx.db, user.id);
  const enabled = row?.enabled === 1;
  return { enabled, recovery_codes_left: enabled ? (JSON.parse(row.recovery ?? '[]') as string[]).length : 0 };
}

/** A new secret, shown once as an otpauth URI (the profile draws it as a QR code); enabled by a first code. */
export async function beginSetup(ctx: AppContext, user: UserRow): Promise<{ secret: string; uri: string }> {
  if (await twoFactorEnabled(ctx, user.id)) throw apiError(400, 'two_factor_already_enabled');
  const secret = newSecret();
  await repo.saveTwoFactorSetup(ctx.db, user.id, seal(ctx.twoFactorKey, secret), Math.floor(Date.now() / 1000));
  return { secret, uri: otpauthUri(ctx.options.get('SystemName'), user.username, secret) };
}

/** Turns two-factor on with the first code; answers the ten recovery codes, the only time they are shown. */
export async function enable(ctx: AppContext, user: UserRow, code: string): Promise<string[]> {
  const row = await repo.findTwoFactor(ctx.db, user.id);
  if (!row) throw apiError(400, 'two_factor_not_started');
  if (row.enabled === 1) throw apiError(400, 'two_factor_already_enabled');
  const step = stepOf(ctx, row, code);
  if (step === null || !(await repo.claimStep(ctx.db, user.id, step))) throw apiError(400, 'two_factor_code_wrong');
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const hex = randomHex(5);
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
  await repo.enableTwoFactor(ctx.db, user.id, codes.map(digest));
  return codes;
}

/**
 * True for a current code not used before (±1 step; a used step and every earlier one are refused,
 * so a code cannot be replayed within its window) or for an unused recovery code, which is then spent.
 */
export async function verifyCode(ctx: AppContext, userId: number, code: string): Promise<boolean> {
  const row = await repo.findTwoFactor(ctx.db, userId);
  if (!row || row.enabled !== 1) return false;
  const trimmed = code.trim();
  const step = stepOf(ctx, row, trimmed);
  if (step !== null) return repo.claimStep(ctx.db, userId, step);
  const left = JSON.parse(row.recovery ?? '[]') as string[];
  const hash = digest(trimmed);
  if (!left.includes(hash)) return false;
  return repo.swapRecovery(ctx.db, userId, row.recovery ?? '[]', left.filter((h) => h !== hash));
}

/** A code the user typed, counted against the account's wrong-code limit (sign-in, step-up, disable). */
export function checkUserCode(ctx: AppContext, userId: number, code: string): Promise<boolean> {
  return limitedCheck(ctx.store, userId, () => verifyCode(ctx, userId, code));
}

/** Turning two-factor off takes a current code: that code is the fresh confirmation. */
export async function disable(ctx: AppContext, user: UserRow, code: string): Promise<void> {
  if (!(await twoFactorEnabled(ctx, user.id))) throw apiError(400, 'two_factor_not_enabled');
  if (!(await checkUserCode(ctx, user.id, code))) throw apiError(400, 'two_factor_code_wrong');
  await repo.deleteTwoFactor(ctx.db, user.id);
}

/** An administrator removes a user's two-factor (lost phone); only for users below their own role, root for all. */
export async function adminReset(ctx: AppContext, admin: UserRow, userId: number): Promise<void> {
  const target = await findUserById(ctx.db, userId);
  if (!target) throw apiError(404, 'user_not_found');
  if (admin.role !== ROLE.root && target.role >= admin.role) throw apiError(403, 'user_rank_forbidden');
  await repo.deleteTwoFactor(ctx.db, userId);
  await clearGuessLimit(ctx.store, userId);
}
