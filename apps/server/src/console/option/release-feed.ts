import type { LatestRelease } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { failureText, outboundFetch } from '../../egress/outbound.js';

const TIMEOUT_MS = 10_000;

/**
 * The latest release from this project's feed (RELEASE_FEED_URL), fetched by the server: the
 * console's CSP allows no third-party origin. Unconfigured is a 503, an unreachable or malformed
 * feed a 502 (the cause logged, not shown).
 */
export async function latestRelease(ctx: AppContext): Promise<LatestRelease> {
  const url = ctx.config.RELEASE_FEED_URL;
  if (!url) throw apiError(503, 'release_feed_unconfigured');
  let body: unknown;
  try {
    const res = await outboundFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = await res.json();
  } catch (error) {
    ctx.log.warn(`release feed ${url} failed: ${failureText(error)}`);
    throw apiError(502, 'release_feed_failed');
  }
  const r = body as Partial<Record<keyof LatestRelease, unknown>> | null;
  if (!r || typeof r.tag_name !== 'string' || !r.tag_name) throw apiError(502, 'release_feed_failed', undefined, { message: 'The release feed answered no tag_name' });
  return { tag_name: r.tag_name, body: typeof r.body === 'string' ? r.body : '', html_url: typeof r.html_url === 'string' ? r.html_url : '' };
}
