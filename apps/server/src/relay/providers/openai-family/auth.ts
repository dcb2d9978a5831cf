import { createHmac } from 'node:crypto';
import type { ChannelTarget } from '../types.js';

export type AuthHeaders = (channel: ChannelTarget) => Record<string, string>;

export const bearer: AuthHeaders = (c) => ({ authorization: `Bearer ${c.key}` });

/** Azure OpenAI resource keys travel in `api-key`. */
export const apiKeyHeader: AuthHeaders = (c) => ({ 'api-key': c.key });

/** Azure Databricks personal access tokens as HTTP Basic `token:<key>` (relay.md §5.1). */
export const databricksBasic: AuthHeaders = (c) => ({ authorization: `Basic ${Buffer.from(`token:${c.key}`).toString('base64')}` });

/** Cloudflare keys are `accountId|apiToken`; only the token authenticates. */
export const cloudflareToken: AuthHeaders = (c) => ({ authorization: `Bearer ${c.key.split('|')[1] ?? c.key}` });

/** Spark's HTTP API takes `APIKey:APISecret`; channel keys are `APPID|APISecret|APIKey` (or an APIPassword alone). */
export const sparkHttp: AuthHeaders = (c) => {
  const [, secret, key] = c.key.split('|');
  return { authorization: `Bearer ${secret && key ? `${key}:${secret}` : c.key}` };
};

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * Zhipu's signed token for an `id.secret` key: HS256 with `sign_type: SIGN`, claims in
 * milliseconds, valid 24 h, sent as the bare Authorization value (relay.md §5.9).
 */
export function zhipuToken(key: string, nowMs: number = Date.now()): string {
  const dot = key.indexOf('.');
  if (dot < 0) return `Bearer ${key}`; // a plain API key
  const id = key.slice(0, dot);
  const secret = key.slice(dot + 1);
  const header = b64url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }));
  const payload = b64url(JSON.stringify({ api_key: id, exp: nowMs + 24 * 3600_000, timestamp: nowMs }));
  const signature = b64url(createHmac('sha256', secret).update(`${header}.${payload}`).digest());
  return `${header}.${payload}.${signature}`;
}

export const zhipuAuth: AuthHeaders = (c) => ({ authorization: zhipuToken(c.key) });
