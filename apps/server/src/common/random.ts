import { randomBytes, randomInt, randomUUID } from 'node:crypto';

const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Cryptographically random string over [0-9a-zA-Z]. */
export function randomAlnum(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[randomInt(ALNUM.length)];
  return out;
}

/** 32 lowercase hex characters (a UUID without dashes). */
export function uuidHex(): string {
  return randomUUID().replaceAll('-', '');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
