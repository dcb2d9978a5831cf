import { crc32 } from 'node:zlib';

/**
 * Decoder of AWS's `application/vnd.amazon.eventstream` framing:
 * [total length u32][headers length u32][prelude CRC32] headers payload [message CRC32],
 * all big-endian; CRCs are checked.
 */

export type HeaderValue = string | number | bigint | boolean | Buffer | Date;

export interface EventStreamMessage {
  headers: Record<string, HeaderValue>;
  payload: Buffer;
}

export class EventStreamError extends Error {}

const PRELUDE = 12;
const MIN_MESSAGE = PRELUDE + 4;
/** AWS caps a message at 16 MB; a larger length means the framing is broken. */
const MAX_MESSAGE = 16 * 1024 * 1024 + 1024;

function readHeaders(buf: Buffer): Record<string, HeaderValue> {
  const headers: Record<string, HeaderValue> = {};
  let at = 0;
  const need = (n: number) => {
    if (at + n > buf.length) throw new EventStreamError('event-stream header runs past its section');
  };
  while (at < buf.length) {
    need(1);
    const nameLength = buf.readUInt8(at++);
    need(nameLength + 1);
    const name = buf.toString('utf8', at, at + nameLength);
    at += nameLength;
    const type = buf.readUInt8(at++);
    let value: HeaderValue;
    switch (type) {
      case 0: value = true; break;
      case 1: value = false; break;
      case 2: need(1); value = buf.readInt8(at); at += 1; break;
      case 3: need(2); value = buf.readInt16BE(at); at += 2; break;
      case 4: need(4); value = buf.readInt32BE(at); at += 4; break;
      case 5: need(8); value = buf.readBigInt64BE(at); at += 8; break;
      case 6:
      case 7: {
        need(2);
        const length = buf.readUInt16BE(at);
        at += 2;
        need(length);
        const bytes = buf.subarray(at, at + length);
        value = type === 7 ? bytes.toString('utf8') : Buffer.from(bytes);
        at += length;
        break;
      }
      case 8: need(8); value = new Date(Number(buf.readBigInt64BE(at))); at += 8; break;
      case 9: need(16); value = buf.subarray(at, at + 16).toString('hex'); at += 16; break;
      default: throw new EventStreamError(`unknown event-stream header type ${type}`);
    }
    headers[name] = value;
  }
  return headers;
}

/** Incremental decoder: feed it the body's chunks as they arrive, get the complete messages. */
export class EventStreamDecoder {
  private buffer = Buffer.alloc(0);

  push(chunk: Uint8Array): EventStreamMessage[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : Buffer.from(chunk);
    const messages: EventStreamMessage[] = [];
    while (this.buffer.length >= PRELUDE) {
      const total = this.buffer.readUInt32BE(0);
      const headersLength = this.buffer.readUInt32BE(4);
      if (crc32(this.buffer.subarray(0, 8)) !== this.buffer.readUInt32BE(8)) throw new EventStreamError('event-stream prelude checksum mismatch');
      if (total < MIN_MESSAGE || total > MAX_MESSAGE || headersLength > total - MIN_MESSAGE) throw new EventStreamError(`bad event-stream message length ${total}`);
      if (this.buffer.length < total) break;
      const message = this.buffer.subarray(0, total);
      if (crc32(message.subarray(0, total - 4)) !== message.readUInt32BE(total - 4)) throw new EventStreamError('event-stream message checksum mismatch');
      messages.push({
        headers: readHeaders(message.subarray(PRELUDE, PRELUDE + headersLength)),
        payload: Buffer.from(message.subarray(PRELUDE + headersLength, total - 4)),
      });
      this.buffer = this.buffer.subarray(total);
    }
    return messages;
  }

  /** Bytes of an incomplete message still waiting (non-zero at the end means the stream broke off mid-message). */
  get pending(): number {
    return this.buffer.length;
  }
}
