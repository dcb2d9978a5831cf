import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { HubError } from '../../common/errors.js';
import type { UpstreamRequest } from '../providers/types.js';
import { rawBodies } from './raw-body.js';

/** One keep-alive pool for direct upstream traffic (undici pools per origin inside it). */
const direct = new Agent({
  keepAliveTimeout: 30_000,
  connections: 256,
  headersTimeout: 300_000, // reasoning models may think for minutes before the first byte
  bodyTimeout: 120_000, // idle time between body chunks, not a total limit
  connect: { timeout: 5_000 },
});
const proxies = new Map<string, Dispatcher>();

function dispatcherFor(proxy: string | null | undefined, key: string): Dispatcher {
  if (!proxy) return direct;
  const url = proxy.includes('%s') ? proxy.replace('%s', key) : proxy;
  if (!/^https?:\/\//.test(url)) throw new HubError(500, 'only http(s) proxies are supported for channels', { code: 'proxy_unsupported' });
  let agent = proxies.get(url);
  if (!agent) {
    agent = new ProxyAgent({ uri: url, headersTimeout: 300_000, bodyTimeout: 120_000 });
    proxies.set(url, agent);
  }
  return agent;
}

export type UpstreamResponse = Dispatcher.ResponseData;

export async function sendUpstream(
  req: UpstreamRequest,
  opts: { method?: 'GET' | 'POST'; proxy?: string | null; proxyKey?: string; signal?: AbortSignal },
): Promise<UpstreamResponse> {
  const body =
    req.body === undefined
      ? undefined
      : req.raw
        ? (req.body as Buffer)
        : (rawBodies.get(req.body as object) ?? JSON.stringify(req.body)); // unchanged bodies go out as received
  try {
    return await request(req.url, {
      method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: req.headers,
      body,
      dispatcher: dispatcherFor(opts.proxy, opts.proxyKey ?? ''),
      signal: opts.signal,
    });
  } catch (error) {
    if (opts.signal?.aborted) throw new HubError(499, 'client closed the request', { code: 'client_closed' });
    throw new HubError(502, `请求上游地址失败: ${(error as Error).message}`, { code: 'http_request_failed', type: 'upstream_error', retryable: true });
  }
}
