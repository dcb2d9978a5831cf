import { crc32, deflateSync } from 'node:zlib';
import type { AppContext } from '../../app-context.js';
import { randomAlnum } from '../../common/random.js';

/** The colour the image probe shows and expects the model to name. */
export const PROBE_COLOUR = 'red';
const TTL_SECONDS = 600;
const key = (id: string) => `channel-check-image:${id}`;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A 64×64 solid red PNG, built once. */
export const PROBE_PNG: Buffer = (() => {
  const size = 64;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, Buffer.from([220, 20, 20]))]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
})();

export interface ImageAccess {
  user_agent: string;
  ip: string;
  /** Who fetched it, guessed from the user agent. */
  remark: string;
}

/** A new image id for one check, kept 10 minutes (in Redis when configured, so any node serves it). */
export async function createProbeImage(ctx: AppContext): Promise<string> {
  const id = randomAlnum(24);
  await ctx.store.set(key(id), '[]', TTL_SECONDS);
  return id;
}

export async function imageAccesses(ctx: AppContext, id: string): Promise<ImageAccess[]> {
  const text = await ctx.store.get(key(id));
  return text ? (JSON.parse(text) as ImageAccess[]) : [];
}

/** Records a fetch of a live probe image; false for an unknown or expired id. */
export async function recordImageAccess(ctx: AppContext, id: string, userAgent: string, ip: string): Promise<boolean> {
  const text = await ctx.store.get(key(id));
  if (text === null) return false;
  const remark = /azure/i.test(userAgent) ? 'Azure' : /openai/i.test(userAgent) ? 'OpenAI' : '';
  const list = [...(JSON.parse(text) as ImageAccess[]), { user_agent: userAgent, ip, remark }].slice(-50);
  await ctx.store.set(key(id), JSON.stringify(list), TTL_SECONDS);
  return true;
}
