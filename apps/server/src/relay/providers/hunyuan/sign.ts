import { createHash, createHmac } from 'node:crypto';

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

export interface Tc3Input {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  action: string;
  version: string;
  payload: Buffer;
  /** Unix seconds. */
  timestamp: number;
}

/**
 * Tencent Cloud API v3 signature (TC3-HMAC-SHA256) for a JSON POST to `/`,
 * signing `content-type` and `host`. Answers the request headers.
 */
export function tc3Headers(i: Tc3Input): Record<string, string> {
  const date = new Date(i.timestamp * 1000).toISOString().slice(0, 10);
  const contentType = 'application/json';
  const canonical = ['POST', '/', '', `content-type:${contentType}\nhost:${i.host}\n`, 'content-type;host', sha256(i.payload)].join('\n');
  const scope = `${date}/${i.service}/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(i.timestamp), scope, sha256(canonical)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${i.secretKey}`, date), i.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(toSign).digest('hex');
  return {
    'content-type': contentType,
    authorization: `TC3-HMAC-SHA256 Credential=${i.secretId}/${scope}, SignedHeaders=content-type;host, Signature=${signature}`,
    'x-tc-action': i.action,
    'x-tc-version': i.version,
    'x-tc-timestamp': String(i.timestamp),
  };
}
