import type { AppContext } from '../../app-context.js';
import { CallerCache } from './flow/caller.js';
import { GroupTable } from './routing/groups.js';
import { ChannelSelector } from './routing/selector.js';
import { PriceIndex } from './accounting/price-index.js';
import { Recorder } from './accounting/recorder.js';
import { LeaseBook } from './accounting/leases.js';
import { OutputLimits } from './flow/output-limits.js';
import { seedDefaultPrices } from './accounting/seed-prices.js';
import { convertSettings } from '../bridge/plan.js';
import type { ConvertSettings } from '../bridge/request.js';
import { sweepStoredResponses } from '../bridge/responses-history.js';
import { InflightCounter } from './accounting/inflight.js';
import { RpmWindows } from './accounting/rpm-window.js';
import { LimitBook } from './accounting/limits.js';
import { Capture } from './flow/capture.js';
import { ContentSafety } from './flow/content-safety.js';
import { PlanBook } from './accounting/plans.js';
import { registerRelayGauges } from '../../http/relay-metrics.js';
import { countUnfinishedTasks } from '../../db/repos/pending-tasks.js';

/** The relay's long-lived in-memory state, one per process. */
export interface RelayState {
  ctx: AppContext;
  callers: CallerCache;
  groups: GroupTable;
  selector: ChannelSelector;
  prices: PriceIndex;
  recorder: Recorder;
  /** Quota holds, served from this node's slices of the balances. */
  leases: LeaseBook;
  /** Models' output limits, for requests without their own cap. */
  outputLimits: OutputLimits;
  /** Settings the format converters read (live: options change without a restart). */
  convert: ConvertSettings;
  /** Relay requests in flight per user on this node (UserMaxInflight). */
  inflight: InflightCounter;
  /** Per-user requests per minute, taken from the shared window in chunks. */
  rpm: RpmWindows;
  /** Token, user and per-model request limits (RPM, TPM, in flight, spending caps) in the shared store. */
  limits: LimitBook;
  /** The EnableSafe keyword filter, applied before any upstream call. */
  safety: ContentSafety;
  /** Subscription plans: covered requests spend a plan window before the balance. */
  plans: PlanBook;
  /** Opt-in body capture (LogCaptureRules); off unless a rule is live. */
  capture: Capture;
}

export async function createRelayState(ctx: AppContext): Promise<RelayState> {
  if (ctx.config.NODE_TYPE === 'master') await seedDefaultPrices(ctx);
  const state: RelayState = {
    ctx,
    callers: new CallerCache(ctx),
    groups: new GroupTable(ctx),
    selector: new ChannelSelector(ctx),
    prices: new PriceIndex(ctx),
    recorder: new Recorder(ctx),
    leases: new LeaseBook(ctx, {
      ttlSeconds: ctx.config.QUOTA_LEASE_TTL_SECONDS,
      sliceSeconds: ctx.config.QUOTA_LEASE_SLICE_SECONDS,
      idleSeconds: ctx.config.QUOTA_LEASE_IDLE_SECONDS,
      keepSeconds: ctx.config.QUOTA_LEASE_KEEP_SECONDS,
    }),
    outputLimits: new OutputLimits(ctx),
    convert: convertSettings(ctx),
    inflight: new InflightCounter(),
    rpm: new RpmWindows(ctx.store, Date.now, true),
    limits: new LimitBook(ctx.store),
    safety: new ContentSafety(ctx.options),
    plans: new PlanBook(ctx),
    capture: new Capture(ctx),
  };
  await Promise.all([state.groups.load(), state.selector.reload(), state.prices.load(), state.outputLimits.load(), state.leases.reclaim(), state.plans.load()]);
  // Safety net beside pub/sub: re-read routing data periodically on every node.
  const resync = () => {
    void Promise.all([state.groups.load(), state.selector.reload(), state.prices.load(), state.outputLimits.load()]).catch((e) => ctx.log.warn({ err: e }, 'relay resync failed'));
  };
  const timer = setInterval(resync, ctx.config.SYNC_FREQUENCY * 1000);
  timer.unref();
  ctx.onClose.push(() => clearInterval(timer));
  // Changes announced while the shared store was unreachable were missed (the caller cache drops itself).
  ctx.store.onRecover(resync);
  // The last flush writes every settled charge before the slices go back.
  ctx.onClose.push(async () => {
    await state.recorder.close();
    await state.plans.close();
    await state.leases.close();
  });
  sweepStoredResponses(ctx);
  registerRelayGauges(ctx, {
    holds: () => state.inflight.total(),
    logLagSeconds: () => state.recorder.logLagSeconds(),
    pendingTasks: () => countUnfinishedTasks(ctx.db),
  });
  return state;
}
