import type { AppContext } from '../app-context.js';
import type { Notice } from './types.js';
import { configuredTargets } from './targets.js';
import { onJobNotice } from '../jobs/notices.js';

export type { Notice, NoticeEvent } from './types.js';

const ATTEMPTS = 4;
const pending = new WeakMap<AppContext, Set<Promise<void>>>();

/**
 * Tells the administrators on every configured target. Returns at once: each target is tried
 * in the background up to four times with doubling delays, and a failure is only logged.
 */
export function notifyAdmins(ctx: AppContext, notice: Notice): void {
  let set = pending.get(ctx);
  if (!set) {
    const created = new Set<Promise<void>>();
    pending.set(ctx, (set = created));
    // Shutdown waits briefly for notices still on their way.
    ctx.onClose.unshift(() => Promise.race([Promise.allSettled([...created]), new Promise((r) => setTimeout(r, 3000).unref())]).then(() => undefined));
  }
  for (const target of configuredTargets(ctx)) {
    const job = deliver(ctx, target.name, () => target.send(notice)).finally(() => set.delete(job));
    set.add(job);
  }
}

/**
 * Passes the scheduled jobs' notices on (a failed price sync, exhausted balances). The channel
 * test's disables and re-enables are left out: autoDisable/autoEnable already tell each one.
 */
export function relayJobNotices(ctx: AppContext): void {
  onJobNotice(ctx, (n) => {
    if (n.job !== 'channel_test') notifyAdmins(ctx, { event: 'job_notice', title: n.title, text: n.text });
  });
}

async function deliver(ctx: AppContext, name: string, send: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await send();
      return;
    } catch (error) {
      const message = (error as Error).message;
      if (attempt >= ATTEMPTS) return ctx.log.error(`notification to ${name} failed after ${attempt} attempts: ${message}`);
      ctx.log.warn(`notification to ${name} failed (attempt ${attempt}), retrying: ${message}`);
      await new Promise((r) => setTimeout(r, ctx.config.NOTIFY_RETRY_BASE_MS * 2 ** (attempt - 1)).unref());
    }
  }
}
