import { createHash, timingSafeEqual } from 'node:crypto';

/** Epay MD5 signature: non-empty parameters except sign/sign_type, sorted by name, `k=v&…` then the key. */
export function epaySign(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return createHash('md5').update(text + key, 'utf8').digest('hex');
}

export function epayVerify(params: Record<string, string>, key: string): boolean {
  const given = Buffer.from(String(params.sign ?? '').toLowerCase());
  const want = Buffer.from(epaySign(params, key));
  return given.length === want.length && timingSafeEqual(given, want);
}
