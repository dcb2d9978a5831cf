import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

const body = (text: string) => text.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

/** A private key as operators paste it: PEM, or the bare base64 of PKCS#8 or PKCS#1 the vendors' tools print. */
export function privateKeyOf(text: string): KeyObject {
  if (text.includes('-----BEGIN')) return createPrivateKey(text);
  const der = Buffer.from(body(text), 'base64');
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
  }
}

/** A public key as PEM or bare base64 SubjectPublicKeyInfo. */
export function publicKeyOf(text: string): KeyObject {
  if (text.includes('-----BEGIN')) return createPublicKey(text);
  return createPublicKey({ key: Buffer.from(body(text), 'base64'), format: 'der', type: 'spki' });
}
