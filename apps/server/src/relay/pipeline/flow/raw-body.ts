import type { IncomingMessage } from 'node:http';
import { errorCodes } from 'fastify';

/**
 * Original request bytes, kept on the parsed body object under a non-enumerable symbol:
 * a spread or rebuilt body does not carry them, so only an unchanged body goes out as
 * received. (A WeakMap entry per request cost the garbage collector measurably more.)
 */
const RAW_BODY = Symbol('rawBody');

export function keepRawBody(parsed: object, bytes: Buffer): void {
  Object.defineProperty(parsed, RAW_BODY, { value: bytes });
}

export function rawBodyOf(body: object): Buffer | undefined {
  return (body as { [RAW_BODY]?: Buffer })[RAW_BODY];
}

/**
 * Collects a request body as Fastify's buffer reader does (same limit and length checks,
 * same errors), except that a body which arrived in one chunk, as most prompts do, is used
 * as that chunk: Fastify copies every body into a new Buffer, a body-sized allocation and
 * copy per request. Stream chunks belong to their reader, so keeping one is safe.
 */
export function readBody(payload: IncomingMessage, limit: number, done: (error: Error | null, bytes?: Buffer) => void): void {
  const declared = Number(payload.headers['content-length']);
  if (declared > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const chunks: Buffer[] = [];
  let received = 0;
  const detach = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', finish);
    payload.removeListener('error', finish);
  };
  const finish = (error?: Error | null) => {
    detach();
    if (error) {
      const status = (error as { statusCode?: unknown }).statusCode;
      if (!(typeof status === 'number' && status >= 400)) Object.assign(error, { statusCode: 400 });
      return done(error);
    }
    if (!Number.isNaN(declared) && received !== declared) return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    done(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
  };
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.length;
    if (received > limit) {
      detach();
      return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    }
    chunks.push(bytes);
  };
  payload.on('data', onData);
  payload.on('end', finish);
  payload.on('error', finish);
  payload.resume();
}
