import type { FastifyReply } from 'fastify';
import { HubError } from '../../../common/errors.js';
import { nowSeconds } from '../../../common/time.js';
import { findOwnTask, insertTask } from '../../../db/repos/task-rows.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import { holdTask, limitColumns, chargeColumns, planColumns, releaseTask, settleTask, type TaskFacts } from '../charge.js';
import { taskChannel } from '../facts.js';
import { callTaskUpstream, type TaskAnswer } from '../upstream.js';
import { taskPollers } from '../registry.js';
import { withTaskLimits } from '../limits.js';
import { withLinks } from '../results.js';
import { linkedData } from './links.js';
import { answerError, unreachable } from '../../../egress/failure.js';
import { refuseTask } from '../refuse.js';
import type { TaskFamily, TaskPlan } from './family.js';

const SUBMIT_TIMEOUT_MS = 60_000;

/** Another channel may take it: the upstream was unreachable, overloaded or broken. */
const retryable = (a: TaskAnswer | undefined) => !a || a.status === 429 || a.status >= 500;

/**
 * Submit → hold → upstream → task row (relay.md §6.2), with failover to another channel
 * on retryable failures. Each attempt holds afresh and releases its hold when refused, so a
 * retry charges exactly once. A refusal reaches the caller mapped by egress/failure.ts, in the
 * door's own error shape (the upstream text goes to the admin's log view only).
 */
export function submitTask(state: RelayState, facts: TaskFacts, family: TaskFamily, plan: TaskPlan, reply: FastifyReply): Promise<void> {
  return withTaskLimits(state, facts, plan.model, () => submit(state, facts, family, plan, reply));
}

async function submit(state: RelayState, facts: TaskFacts, family: TaskFamily, plan: TaskPlan, reply: FastifyReply): Promise<void> {
  let pinned: number | undefined;
  if (plan.originTaskId) {
    const origin = await findOwnTask(state.ctx.db, facts.caller.user.id, family.platform, plan.originTaskId);
    if (!origin) throw new HubError(400, `task_id ${plan.originTaskId} 不存在`, { code: 'task_not_found' });
    pinned = origin.channel_id;
  }
  const tried = new Set<number>();
  const attempts = pinned || facts.caller.pinnedChannel ? 1 : 1 + Math.max(0, state.ctx.options.get('RetryTimes'));
  let answer: TaskAnswer | undefined;
  let told: HubError | undefined;
  for (let i = 0; i < attempts; i++) {
    const channel = await taskChannel(state, facts, plan.model, family.channelTypes, pinned, tried).catch((error) => {
      if (i === 0) throw error;
      return undefined;
    });
    if (!channel) break;
    tried.add(channel.id);
    const hold = await holdTask(state, facts, channel, plan.priceModel ?? plan.model, plan.units ?? 1);
    answer = undefined;
    try {
      answer = await callTaskUpstream(channel, `${family.baseUrl(channel, state.ctx)}${plan.path}`, {
        method: 'POST',
        headers: family.headers(channel),
        body: plan.rawBody ?? plan.body,
        timeoutMs: SUBMIT_TIMEOUT_MS,
        span: facts.span,
      });
    } catch (error) {
      told = unreachable(error);
    }
    const verdict = answer && answer.status === 200 ? family.accepted(answer) : undefined;
    if (verdict && 'taskId' in verdict) {
      const quota = settleTask(state, facts, hold, `${family.platform} ${plan.action} ${verdict.taskId}`);
      const now = nowSeconds();
      const id = await insertTask(state.ctx.db, {
        task_id: verdict.taskId,
        platform: family.platform,
        user_id: facts.caller.user.id,
        token_id: facts.caller.token.id,
        channel_id: channel.id,
        quota,
        ...planColumns(hold),
        ...limitColumns(facts, hold, quota),
        ...chargeColumns(hold),
        action: plan.action,
        status: 'SUBMITTED',
        progress: 0,
        submit_time: now,
        created_at: now,
        updated_at: now,
        properties: JSON.stringify(plan.properties),
        data: family.keepAnswer ? JSON.stringify(answer!.json) : undefined,
      });
      taskPollers(state)[family.platform].wake();
      // The answer kept as the task's data links its files through the gateway; any other answer names no upstream file.
      const shown = family.keepAnswer ? await linkedData(state, { id, channel_id: channel.id }, answer!.json) : withLinks(answer!.json, () => '');
      return reply.status(200).send(shown);
    }
    releaseTask(state, hold);
    const failure = answer ? answerError(answer.status, verdict && 'error' in verdict ? verdict.error : answer.text, answer.json) : told!;
    told = refuseTask(state, facts, channel, failure, `/${family.platform}`, hold);
    if (!retryable(answer)) break;
  }
  throw told ?? new HubError(503, 'no channel answered', { code: 'no_available_channel' });
}
