import { createHmac } from 'node:crypto';

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * Kling's bearer: a key `accessKey|secretKey` becomes a JWT (HS256, `iss` = access key,
 * valid 30 minutes, from 5 seconds ago); any other key is the bearer itself.
 */
export function klingBearer(key: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const [ak, sk] = key.split('|');
  if (!ak || !sk) return key;
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ iss: ak, exp: nowSeconds + 1800, nbf: nowSeconds - 5 })}`;
  return `${unsigned}.${createHmac('sha256', sk).update(unsigned).digest('base64url')}`;
}
