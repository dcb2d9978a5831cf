import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readBody } from './raw-body.js';

function payload(chunks: Buffer[], contentLength?: number): IncomingMessage {
  const stream = Readable.from(chunks, { objectMode: false }) as unknown as IncomingMessage;
  stream.headers = contentLength === undefined ? {} : { 'content-length': String(contentLength) };
  return stream;
}

const read = (p: IncomingMessage, limit = 1024) =>
  new Promise<{ error: (Error & { code?: string; statusCode?: number }) | null; bytes?: Buffer }>((resolve) => readBody(p, limit, (error, bytes) => resolve({ error, bytes })));

describe('readBody', () => {
  it('hands over a one-chunk body as that chunk, without a copy', async () => {
    const chunk = Buffer.from('{"model":"m"}');
    const { error, bytes } = await read(payload([chunk], chunk.length));
    expect(error).toBeNull();
    expect(bytes).toBe(chunk);
  });

  it('joins a body that arrived in several chunks', async () => {
    const { bytes } = await read(payload([Buffer.from('{"a":'), Buffer.from('1'), Buffer.from('}')]));
    expect(bytes?.toString()).toBe('{"a":1}');
  });

  it('refuses a declared size over the limit before reading', async () => {
    const { error } = await read(payload([Buffer.alloc(10)], 5000));
    expect(error).toMatchObject({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
  });

  it('refuses a body that outgrows the limit while arriving', async () => {
    const { error, bytes } = await read(payload([Buffer.alloc(600), Buffer.alloc(600)]));
    expect(error).toMatchObject({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
    expect(bytes).toBeUndefined();
  });

  it('refuses a body shorter than its declared length', async () => {
    const { error } = await read(payload([Buffer.from('abc')], 10));
    expect(error).toMatchObject({ code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', statusCode: 400 });
  });
});
