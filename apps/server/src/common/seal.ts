import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Marks a value sealed by `seal`; anything without it is a plaintext value from before encryption. */
const PREFIX = 'enc1:';

/** A 32-byte AES key for one purpose, derived (HKDF-SHA256) from the gateway's session secret. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'one-hub', purpose, 32));
}

/** AES-256-GCM with a fresh 12-byte IV: `enc1:` + base64url(iv | tag | ciphertext). */
export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

/** The plaintext of a sealed value, or the value itself when it was stored before sealing. Throws on a wrong key. */
export function unseal(key: Buffer, stored: string): string {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
