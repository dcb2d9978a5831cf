import bcrypt from 'bcryptjs';

const COST = 10;

export const hashPassword = (plain: string): Promise<string> => bcrypt.hash(plain, COST);

let dummyHash: Promise<string> | undefined;

/**
 * Compares against the hash, or against a dummy hash of the same cost when there is none
 * (unknown user, OAuth-only account), so the answer takes as long either way and timing
 * does not tell which usernames exist.
 */
export async function checkPassword(plain: string, hash: string | undefined): Promise<boolean> {
  const target = hash || (await (dummyHash ??= bcrypt.hash(`dummy-${Math.random()}`, COST)));
  try {
    const same = await bcrypt.compare(plain, target);
    return same && Boolean(hash);
  } catch {
    return false;
  }
}
