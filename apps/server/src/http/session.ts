import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';

/** What the signed `session` cookie carries. Role and status are re-read from the user row on each request. */
export interface SessionData {
  id?: number;
  username?: string;
  oauth_state?: string;
  turnstile?: boolean;
  [key: string]: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionData;
  }
}

export const SESSION_COOKIE = 'session';
const MAX_AGE_SECONDS = 30 * 24 * 3600;

/** Signed (HMAC), httpOnly, SameSite=Strict cookie session; nothing stored server-side. */
export async function registerSession(app: FastifyInstance, secret: string): Promise<void> {
  await app.register(fastifyCookie, { secret });
  app.decorateRequest('session', null as unknown as SessionData);
  app.addHook('onRequest', async (req) => {
    req.session = readSession(req);
  });
}

function readSession(req: FastifyRequest): SessionData {
  const raw = req.cookies[SESSION_COOKIE];
  if (!raw) return {};
  const unsigned = req.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return {};
  try {
    const data = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8'));
    return data && typeof data === 'object' ? (data as SessionData) : {};
  } catch {
    return {};
  }
}

export function writeSession(reply: FastifyReply, data: SessionData): void {
  reply.request.session = data;
  const value = Buffer.from(JSON.stringify(data)).toString('base64url');
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    maxAge: MAX_AGE_SECONDS,
    signed: true,
    secure: reply.request.protocol === 'https',
  });
}

export function clearSession(reply: FastifyReply): void {
  reply.request.session = {};
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
