import { Bot } from 'grammy';
import type { Dispatcher } from 'undici';
import { guardedProxyAgent, outboundFetch } from '../egress/outbound.js';

const MAX_RATE_LIMIT_RETRIES = 3;

/** The dispatcher for TG_HTTP_PROXY (http(s):// or socks5://), none when empty. */
export function proxyDispatcher(proxy: string): Dispatcher | undefined {
  if (!proxy.trim()) return undefined;
  let agent = agents.get(proxy);
  if (agent) return agent;
  agent = guardedProxyAgent(proxy);
  if (!agent) throw new Error('telegram proxy must be an http://, https:// or socks5:// URL');
  agents.set(proxy, agent);
  return agent;
}

/** One agent per proxy URL for the life of the process (the bot's and the notifier's). */
const agents = new Map<string, Dispatcher>();

/**
 * grammY's fetch backed by undici: grammY hands over a polyfilled AbortSignal, which is
 * bridged to a native one here, and the proxy goes in as undici's dispatcher.
 */
function fetchVia(dispatcher: Dispatcher | undefined) {
  return (url: string, init: { method?: string; headers?: Record<string, string>; body?: any; signal?: any }) => {
    const abort = new AbortController();
    if (init.signal?.aborted) abort.abort();
    else init.signal?.addEventListener?.('abort', () => abort.abort());
    return outboundFetch(url, { method: init.method, headers: init.headers, body: init.body, signal: abort.signal, dispatcher });
  };
}

/** A grammY bot on the given Bot API server; calls refused with 429 wait retry_after and are retried. */
export function createBot(token: string, apiRoot: string, proxy: string): Bot {
  const bot = new Bot(token, {
    client: { apiRoot: apiRoot.replace(/\/+$/, ''), fetch: fetchVia(proxyDispatcher(proxy)) as never, timeoutSeconds: 60 },
  });
  bot.api.config.use(async (prev, method, payload, signal) => {
    if (method === 'getUpdates') return pollWithBackoff(() => prev(method, payload, signal), signal);
    for (let attempt = 0; ; attempt++) {
      const res = await prev(method, payload, signal);
      if (res.ok || res.error_code !== 429 || attempt >= MAX_RATE_LIMIT_RETRIES) return res;
      await pause(retryAfter(res.parameters?.retry_after), signal);
    }
  });
  return bot;
}

const retryAfter = (seconds: number | undefined) => Math.min(Math.max(seconds ?? 1, 0), 60) * 1000;

/** Waits, ending early (with an error) when the signal aborts, so a stopping bot is not held up. */
function pause(ms: number, signal?: { aborted: boolean; addEventListener?: (t: string, f: () => void) => void }): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener?.('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}

/**
 * One long poll that survives network errors and 5xx answers by trying again after 0.2 s,
 * doubling up to 30 s (grammY alone waits a fixed 3 s), and 429s after retry_after. 401 and 409
 * are answered to grammY, which stops polling on them.
 */
async function pollWithBackoff<T extends { ok: boolean; error_code?: number; parameters?: { retry_after?: number } }>(
  call: () => Promise<T>,
  signal?: { aborted: boolean },
): Promise<T> {
  for (let delay = 200; ; delay = Math.min(delay * 2, 30_000)) {
    let wait = delay;
    try {
      const res = await call();
      if (res.ok || (res.error_code !== 429 && (res.error_code ?? 0) < 500)) return res;
      if (res.error_code === 429) wait = retryAfter(res.parameters?.retry_after);
    } catch (error) {
      if (signal?.aborted) throw error;
    }
    await pause(wait, signal as never);
  }
}

/** Removes the bot token from error text before it is logged. */
export function redact(text: string, token: string): string {
  return token ? text.split(token).join('<bot-token>') : text;
}
