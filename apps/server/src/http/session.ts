import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';

/** What the signed `session` cookie carries. Role and status are re-read from the user row on each request. */
export interface SessionData {
  id?: number;
  username?: string;
  /** The user's session version at sign-in; a later bump ends this session. */
  v?: number;
  /** Issue time (epoch seconds); the server refuses sessions older than the cookie's lifetime. */
  iat?: number;
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
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

declare module 'fastify' {
  interface FastifyInstance {
    /** SESSION_SECURE_COOKIE: mark the cookie Secure even when the request reached us over plain HTTP. */
    sessionSecure: boolean;
  }
}

/** Signed (HMAC), httpOnly, SameSite=Strict cookie session; nothing stored server-side. */
export async function registerSession(app: FastifyInstance, secret: string, alwaysSecure = false): Promise<void> {
  await app.register(fastifyCookie, { secret });
  app.decorate('sessionSecure', alwaysSecure);
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
    maxAge: SESSION_MAX_AGE_SECONDS,
    signed: true,
    secure: reply.server.sessionSecure || reply.request.protocol === 'https',
  });
}

/** A fresh sign-in session for the user under their current session version. */
export function writeLoginSession(reply: FastifyReply, user: { id: number; username: string; session_version: number }): void {
  writeSession(reply, { id: user.id, username: user.username, v: user.session_version, iat: Math.floor(Date.now() / 1000) });
}

/** True when the session was issued under the user's current version and is not past its lifetime. */
export function sessionCurrent(session: SessionData, sessionVersion: number): boolean {
  if (session.v !== sessionVersion || typeof session.iat !== 'number') return false;
  return session.iat + SESSION_MAX_AGE_SECONDS > Date.now() / 1000;
}

export function clearSession(reply: FastifyReply): void {
  reply.request.session = {};
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
