import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { failureText, outboundFetch } from '../../egress/outbound.js';

const TIMEOUT_MS = 10_000;

export interface PassedThrough {
  contentType: string;
  body: Buffer;
}

/**
 * One Uptime Kuma status-page API answer, passed through as received (api.md §26).
 * `kind` picks the page itself or its heartbeat list. A missing configuration, an
 * unreachable server or a failed answer is a clean 502/503 envelope, never a 500; why the server
 * could not be reached (its address, the socket error) is logged, not shown to the user.
 */
export async function uptimeKumaPage(ctx: AppContext, kind: 'page' | 'heartbeat'): Promise<PassedThrough> {
  const domain = ctx.config.UPTIME_KUMA_DOMAIN.replace(/\/+$/, '');
  const page = ctx.config.UPTIME_KUMA_STATUS_PAGE_NAME;
  if (!domain || !page) throw apiError(503, 'uptime_kuma_unconfigured');
  const path = kind === 'page' ? 'status-page' : 'status-page/heartbeat';
  const url = `${domain}/api/${path}/${encodeURIComponent(page)}?t=${Date.now()}`;
  let res: Awaited<ReturnType<typeof outboundFetch>>;
  try {
    res = await outboundFetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    ctx.log.warn(`Uptime Kuma ${domain} is unreachable: ${failureText(error)}`);
    throw apiError(502, 'uptime_kuma_unreachable');
  }
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw apiError(502, 'uptime_kuma_failed', { status: res.status });
  return { contentType: res.headers.get('content-type') ?? 'application/json', body };
}
