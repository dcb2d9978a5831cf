import type { JobName } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';

/** Something a job did that administrators should hear about (channels disabled or re-enabled, a failed sync). */
export interface JobNotice {
  job: JobName;
  title: string;
  /** Markdown lines. */
  text: string;
}

type Listener = (notice: JobNotice) => void | Promise<void>;
const listeners = new WeakMap<AppContext, Set<Listener>>();

/**
 * The admin notifier's subscription point: jobs never send messages themselves.
 * `notify/` calls this once at start-up with its fan-out.
 */
export function onJobNotice(ctx: AppContext, listener: Listener): () => void {
  let set = listeners.get(ctx);
  if (!set) listeners.set(ctx, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Hands a notice to every subscriber; a failing subscriber is logged, never fatal to the job. */
export function emitJobNotice(ctx: AppContext, notice: JobNotice): void {
  ctx.log.info({ job: notice.job, title: notice.title }, notice.text);
  for (const listener of listeners.get(ctx) ?? []) {
    void Promise.resolve()
      .then(() => listener(notice))
      .catch((error) => ctx.log.warn({ err: error, job: notice.job }, 'job notice listener failed'));
  }
}
