import { createHash, createHmac } from 'node:crypto';

/** AWS credentials and the scope a request is signed for. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
  service: string;
}

export interface SignInput {
  method: string;
  host: string;
  /** The path exactly as sent on the wire (already percent-encoded where needed). */
  path: string;
  /** The query string as sent, without `?`. */
  query?: string;
  headers: Record<string, string>;
  body: string | Buffer;
  now: Date;
}

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: only unreserved characters stay literal. */
export function awsEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20150830T123600Z` */
export function amzDate(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/**
 * Canonical URI for every service but S3: the wire path with each segment
 * encoded once more (so `%3A` in a Bedrock model id is signed as `%253A`).
 */
function canonicalPath(path: string): string {
  return path.split('/').map(awsEncode).join('/') || '/';
}

function canonicalQuery(query: string): string {
  if (!query) return '';
  const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const [k, v] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
      return [awsEncode(decode(k)), awsEncode(decode(v))];
    })
    .sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : av > bv ? 1 : 0) : ak < bk ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/** The pieces of a signature, exposed so a verifier can recompute one from a received request. */
export function signature(input: SignInput, creds: AwsCredentials, signedHeaderNames: string[]) {
  const stamp = amzDate(input.now);
  const day = stamp.slice(0, 8);
  const lower = new Map(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), String(v).trim().replace(/\s+/g, ' ')]));
  const names = [...signedHeaderNames].map((n) => n.toLowerCase()).sort();
  const canonicalHeaders = names.map((n) => `${n}:${lower.get(n) ?? ''}\n`).join('');
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalPath(input.path),
    canonicalQuery(input.query ?? ''),
    canonicalHeaders,
    names.join(';'),
    sha256Hex(input.body),
  ].join('\n');
  const scope = `${day}/${creds.region}/${creds.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256Hex(canonicalRequest)].join('\n');
  const value = createHmac('sha256', signingKey(creds.secretAccessKey, day, creds.region, creds.service)).update(stringToSign).digest('hex');
  return {
    canonicalRequest,
    stringToSign,
    signature: value,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${value}`,
  };
}

/**
 * Signs a request with AWS Signature V4 (header form): answers the headers to
 * send, i.e. the given ones plus host, x-amz-date, the session token when
 * there is one, and Authorization. Every header passed in is signed.
 */
export function signRequest(input: SignInput, creds: AwsCredentials): Record<string, string> {
  const headers: Record<string, string> = { ...input.headers, host: input.host, 'x-amz-date': amzDate(input.now) };
  if (creds.sessionToken) headers['x-amz-security-token'] = creds.sessionToken;
  const { authorization } = signature({ ...input, headers }, creds, Object.keys(headers));
  return { ...headers, authorization };
}
