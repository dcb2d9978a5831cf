import type { FastifyReply, FastifyRequest } from 'fastify';
import { outboundRequest as request } from '../../egress/outbound.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import { dispatcherFor } from '../pipeline/flow/upstream.js';
import { answerError, outsideFailure, unreachable } from '../../egress/failure.js';
import { channelKey } from './upstream.js';

const URL_TEXT = /^https?:\/\//i;

/** Every http(s) URL in a task's upstream data, in a fixed walk order (arrays in order, keys as stored). */
export function resultUrls(data: unknown): string[] {
  const found: string[] = [];
  withLinks(data, (_n, url) => (found.push(url), url));
  return found;
}

/**
 * The data with every http(s) URL replaced by `link(n, url)`, n counting URLs in walk order:
 * result files (Suno audio, Kling videos) are served by the gateway, upstream hosts never reach a client.
 */
export function withLinks(data: unknown, link: (n: number, url: string) => string): unknown {
  let n = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return URL_TEXT.test(v) ? link(n++, v) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(data);
}

const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'content-disposition', 'last-modified', 'etag'];

/**
 * Pipes a result file from upstream as it arrives (never held whole in memory), through the
 * task channel's proxy and the egress guard; a player's Range request is passed on.
 */
export async function streamResult(channel: ChannelRow | undefined, url: string, req: FastifyRequest, reply: FastifyReply, headers: Record<string, string> = {}): Promise<FastifyReply> {
  const range = req.headers.range;
  const res = await request(url, {
    headers: { ...headers, ...(typeof range === 'string' ? { range } : {}) },
    dispatcher: dispatcherFor(channel?.proxy, channel ? channelKey(channel) : ''),
  }).catch((error) => {
    throw outsideFailure(unreachable(error), channel, false);
  });
  if (res.statusCode !== 200 && res.statusCode !== 206) {
    await res.body.dump();
    throw outsideFailure(answerError(res.statusCode < 300 ? 502 : res.statusCode, '', undefined), channel, false);
  }
  for (const name of PASSED_HEADERS) if (res.headers[name] !== undefined) reply.header(name, res.headers[name]);
  reply.header('cache-control', 'private, max-age=3600');
  return reply.status(res.statusCode).send(res.body);
}
