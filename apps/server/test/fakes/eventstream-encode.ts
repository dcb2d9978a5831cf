import { crc32 } from 'node:zlib';

/** Encodes one `application/vnd.amazon.eventstream` message with string headers (what Bedrock sends). */
export function encodeEventStreamMessage(headers: Record<string, string>, payload: Buffer | string): Buffer {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const n = Buffer.from(name, 'utf8');
      const v = Buffer.from(value, 'utf8');
      const out = Buffer.alloc(1 + n.length + 1 + 2 + v.length);
      out.writeUInt8(n.length, 0);
      n.copy(out, 1);
      out.writeUInt8(7, 1 + n.length);
      out.writeUInt16BE(v.length, 2 + n.length);
      v.copy(out, 4 + n.length);
      return out;
    }),
  );
  const body = Buffer.from(payload);
  const total = 12 + headerBytes.length + body.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
  headerBytes.copy(message, 12);
  body.copy(message, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}

/** A Bedrock `chunk` event carrying one Claude stream event (`p` is the padding AWS adds to hide lengths). */
export function bedrockChunk(event: unknown): Buffer {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return encodeEventStreamMessage({ ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' }, JSON.stringify({ bytes, p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0' }));
}

/** A Bedrock exception message (e.g. throttlingException, modelStreamErrorException). */
export function bedrockException(type: string, message: string): Buffer {
  return encodeEventStreamMessage({ ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' }, JSON.stringify({ message }));
}
