import bcrypt from 'bcryptjs';

const COST = 10;

export const hashPassword = (plain: string): Promise<string> => bcrypt.hash(plain, COST);

export async function checkPassword(plain: string, hash: string): Promise<boolean> {
  if (!hash) return false; // OAuth-only accounts have no password
  try {
    return await bcrypt.compare(plain, hash);
  } catch {
    return false;
  }
}
