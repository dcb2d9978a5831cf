import { sign } from 'node:crypto';
import { HubError } from '../../../common/errors.js';

/** The fields of a Google service-account key file the gateway needs. */
export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  tokenUri: string;
  projectId?: string;
}

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** Parses the channel key (the service-account JSON key file). */
export function parseServiceAccount(key: string): ServiceAccount {
  let json: any;
  try {
    json = JSON.parse(key);
  } catch {
    throw new HubError(503, 'vertex key must be a service-account JSON key file', { code: 'channel_misconfigured', retryable: true });
  }
  if (typeof json?.client_email !== 'string' || typeof json.private_key !== 'string') {
    throw new HubError(503, 'vertex service-account JSON lacks client_email or private_key', { code: 'channel_misconfigured', retryable: true });
  }
  return {
    clientEmail: json.client_email,
    privateKey: json.private_key,
    privateKeyId: typeof json.private_key_id === 'string' ? json.private_key_id : undefined,
    tokenUri: typeof json.token_uri === 'string' && json.token_uri ? json.token_uri : GOOGLE_TOKEN_URI,
    projectId: typeof json.project_id === 'string' ? json.project_id : undefined,
  };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The signed JWT (RS256) a service account trades for an access token, valid one hour from `nowSeconds`. */
export function serviceAccountAssertion(sa: ServiceAccount, nowSeconds: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(sa.privateKeyId ? { kid: sa.privateKeyId } : {}) };
  const claims = { iss: sa.clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: sa.tokenUri, iat: nowSeconds, exp: nowSeconds + 3600 };
  const input = `${b64url(header)}.${b64url(claims)}`;
  let signature: Buffer;
  try {
    signature = sign('sha256', Buffer.from(input), sa.privateKey);
  } catch {
    throw new HubError(503, 'vertex service-account private_key is not a usable RSA key', { code: 'channel_misconfigured', retryable: true });
  }
  return `${input}.${signature.toString('base64url')}`;
}
