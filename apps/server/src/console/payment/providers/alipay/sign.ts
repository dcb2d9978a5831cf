import { createSign, createVerify, type KeyObject } from 'node:crypto';

/** Alipay's content to sign: non-empty parameters sorted by name, `k=v&…`, values unencoded. */
export function alipayContent(params: Record<string, string>, skip: readonly string[]): string {
  return Object.keys(params)
    .filter((k) => !skip.includes(k) && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

/** RSA2 = SHA256withRSA, base64. Requests sign everything but `sign`. */
export function alipaySign(params: Record<string, string>, key: KeyObject): string {
  return createSign('RSA-SHA256').update(alipayContent(params, ['sign']), 'utf8').sign(key, 'base64');
}

export function rsa2Verify(content: string, signature: string, key: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(key, signature, 'base64');
  } catch {
    return false;
  }
}

/** Notifies are verified over everything but `sign` and `sign_type`. */
export function alipayVerifyNotify(params: Record<string, string>, key: KeyObject): boolean {
  return Boolean(params.sign) && rsa2Verify(alipayContent(params, ['sign', 'sign_type']), params.sign, key);
}

/** The exact text of `<name>` in an Alipay JSON answer, which the answer's `sign` covers. */
export function signedSection(raw: string, name: string): string | null {
  const start = raw.indexOf(`"${name}":`);
  const end = raw.lastIndexOf(',"sign"');
  if (start < 0 || end < 0 || end < start) return null;
  return raw.slice(start + name.length + 3, end).trim();
}
