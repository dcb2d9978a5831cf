import { request } from 'undici';
import { PriceSyncBody } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { syncPrices } from '../console/price/service.js';
import type { JobDef } from './runner.js';
import { emitJobNotice } from './notices.js';

const MAX_BYTES = 8 * 1024 * 1024;

/** Reads the remote price list: a JSON array of price rows, or `{data: [...]}` (api.md §5 update_price_service). */
async function fetchPriceList(url: string): Promise<unknown> {
  const res = await request(url, { method: 'GET', headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000), maxRedirections: 0 } as Parameters<typeof request>[1]);
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new Error(`price service answered HTTP ${res.statusCode}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_BYTES) throw new Error('price list is larger than 8 MiB');
    chunks.push(chunk as Buffer);
  }
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return Array.isArray(parsed) ? parsed : (parsed as { data?: unknown })?.data;
  } catch {
    throw new Error('price list is not JSON');
  }
}

/** One remote price sync in the configured mode; locked prices are never replaced. */
export async function syncPricesOnce(ctx: AppContext): Promise<string> {
  const { UPDATE_PRICE_SERVICE: url, AUTO_PRICE_UPDATES_MODE: mode } = ctx.config;
  try {
    const parsed = PriceSyncBody.safeParse(await fetchPriceList(url));
    if (!parsed.success) throw new Error(`price list rejected: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
    await syncPrices(ctx, parsed.data, mode);
    return `${parsed.data.length} prices read, mode ${mode}`;
  } catch (error) {
    emitJobNotice(ctx, { job: 'price_sync', title: 'Price sync failed', text: (error as Error).message });
    throw error;
  }
}

/** AUTO_PRICE_UPDATES with a mode other than `system`: sync every AUTO_PRICE_UPDATES_INTERVAL minutes. */
export function priceSyncJob(ctx: AppContext): JobDef {
  const on = ctx.config.AUTO_PRICE_UPDATES && ctx.config.AUTO_PRICE_UPDATES_MODE !== 'system';
  return { name: 'price_sync', schedule: on ? { everySeconds: ctx.config.AUTO_PRICE_UPDATES_INTERVAL * 60 } : undefined, run: (c) => syncPricesOnce(c) };
}
