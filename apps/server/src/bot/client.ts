import { Bot } from 'grammy';
import { fetch as undiciFetch, ProxyAgent, Socks5ProxyAgent, type Dispatcher } from 'undici';

const MAX_RATE_LIMIT_RETRIES = 3;

/** The dispatcher for TG_HTTP_PROXY (http(s):// or socks5://), none when empty. */
export function proxyDispatcher(proxy: string): Dispatcher | undefined {
  if (!proxy.trim()) return undefined;
  if (/^https?:\/\//i.test(proxy)) return new ProxyAgent(proxy);
  if (/^socks5?:\/\//i.test(proxy)) return new Socks5ProxyAgent(proxy);
  throw new Error('telegram proxy must be an http://, https:// or socks5:// URL');
}

/**
 * grammY's fetch backed by undici: grammY hands over a polyfilled AbortSignal, which is
 * bridged to a native one here, and the proxy goes in as undici's dispatcher.
 */
function fetchVia(dispatcher: Dispatcher | undefined) {
  return (url: string, init: { method?: string; headers?: Record<string, string>; body?: any; signal?: any }) => {
    const abort = new AbortController();
    if (init.signal?.aborted) abort.abort();
    else init.signal?.addEventListener?.('abort', () => abort.abort());
    return undiciFetch(url, { method: init.method, headers: init.headers, body: init.body, signal: abort.signal, dispatcher });
  };
}

/** A grammY bot on the given Bot API server; calls refused with 429 wait retry_after and are retried. */
export function createBot(token: string, apiRoot: string, proxy: string): Bot {
  const bot = new Bot(token, {
    client: { apiRoot: apiRoot.replace(/\/+$/, ''), fetch: fetchVia(proxyDispatcher(proxy)) as never, timeoutSeconds: 60 },
  });
  bot.api.config.use(async (prev, method, payload, signal) => {
    for (let attempt = 0; ; attempt++) {
      const res = await prev(method, payload, signal);
      // getUpdates has grammY's own retry loop, which honours retry_after too.
      if (res.ok || res.error_code !== 429 || method === 'getUpdates' || attempt >= MAX_RATE_LIMIT_RETRIES) return res;
      const seconds = Math.min(Math.max(res.parameters?.retry_after ?? 1, 0), 60);
      await new Promise((r) => setTimeout(r, seconds * 1000));
    }
  });
  return bot;
}

/** Removes the bot token from error text before it is logged. */
export function redact(text: string, token: string): string {
  return token ? text.split(token).join('<bot-token>') : text;
}
