import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChannelRow } from '../../../db/repos/channels.js';
import { findOwnMidjourney, insertMidjourney } from '../../../db/repos/task-rows.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import { holdTask, limitColumns, chargeColumns, planColumns, releaseTask, settleTask, type TaskFacts, type TaskHold } from '../charge.js';
import { taskChannel, taskFacts } from '../facts.js';
import { baseOf, callTaskUpstream, channelKey, type TaskAnswer } from '../upstream.js';
import { taskPollers } from '../registry.js';
import { withTaskLimits } from '../limits.js';
import { withLinks } from '../results.js';
import { imageLink } from './task-json.js';
import { answerError, outsideFailure, scrubIdentity, unreachable, withRequestId } from '../../../egress/failure.js';
import { HubError } from '../../../common/errors.js';
import { refuseTask } from '../refuse.js';
import {
  ACCEPTED_CODES, MJ_CHANNEL_TYPE, NEVER_CHARGED, NO_ACCOUNT_CODE, PATH_ACTIONS, actionOfCustomId, mjError, mjModel, parseChange, parseSimpleChange, rewriteCode, upstreamBody,
  type MjAction, type MjMode,
} from './mapping.js';

const SUBMIT_TIMEOUT_MS = 60_000;

/** The secret a channel's notify hook carries: only that channel's upstream knows its URL. */
export const notifySignature = (row: ChannelRow) => createHmac('sha256', channelKey(row)).update(`mj-notify.${row.id}`).digest('base64url');

interface Resolved {
  action: MjAction;
  mode: MjMode;
  /** The earlier task a follow-up acts on (pins its channel and mode). */
  origin?: { channelId: number; prompt: string };
}

/** The action and, for follow-ups, the caller's original task (relay.md §6.1 steps 1–2). */
async function resolve(state: RelayState, facts: TaskFacts, kind: string, body: Record<string, unknown>, mode: MjMode): Promise<Resolved> {
  const direct = PATH_ACTIONS[kind];
  if (kind === 'imagine' && typeof body.prompt !== 'string') throw mjError(400, 'prompt不能为空');
  if (direct && direct !== 'MODAL') return { action: direct, mode };
  if (kind === 'swap') {
    if (typeof body.sourceBase64 !== 'string' || typeof body.targetBase64 !== 'string') throw mjError(400, 'sourceBase64 和 targetBase64 不能为空');
    return { action: 'SWAP_FACE', mode };
  }
  let taskId = body.taskId;
  let action: MjAction;
  if (kind === 'change') action = parseChange(body).action;
  else if (kind === 'simple-change') ({ taskId, action } = parseSimpleChange(body.content));
  else if (kind === 'action') action = actionOfCustomId(body.customId);
  else action = 'MODAL';
  if (typeof taskId !== 'string' || !taskId) throw mjError(400, 'taskId不能为空');
  const original = await findOwnMidjourney(state.ctx.db, facts.caller.user.id, taskId);
  if (!original) throw mjError(404, '任务不存在', 3);
  if (action !== 'MODAL' && original.status !== 'SUCCESS') throw mjError(400, '关联任务状态错误');
  return { action, mode: (original.mode as MjMode) || mode, origin: { channelId: original.channel_id, prompt: original.prompt ?? '' } };
}

async function send(state: RelayState, facts: TaskFacts, row: ChannelRow, path: string, body: Record<string, unknown>, mode: MjMode): Promise<TaskAnswer> {
  const hook = state.ctx.options.get('MjNotifyEnabled')
    ? `${state.ctx.options.get('ServerAddress').replace(/\/+$/, '')}/mj/notify?channel=${row.id}&sig=${notifySignature(row)}`
    : undefined;
  return callTaskUpstream(row, `${baseOf(row)}${path}`, {
    method: 'POST',
    headers: { 'mj-api-secret': channelKey(row) },
    body: upstreamBody(body, mode, hook),
    timeoutMs: SUBMIT_TIMEOUT_MS,
    span: facts.span,
  });
}

const codeOf = (a: TaskAnswer) => (typeof a.json?.code === 'number' ? (a.json.code as number) : -1);

/** One submission: hold, call upstream (relax once on code 3), record the task, settle or release (relay.md §6.1). */
export async function submitMidjourney(state: RelayState, req: FastifyRequest, reply: FastifyReply, kind: string, mode: MjMode, path: string): Promise<void> {
  const facts = await taskFacts(state, req, 'midjourney');
  if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) throw mjError(400, '请求体必须是 JSON 对象');
  const body = req.body as Record<string, unknown>;
  const r = await resolve(state, facts, kind, body, mode);
  return withTaskLimits(state, facts, mjModel(r.mode, r.action), () => submitResolved(state, facts, r, body, reply, path));
}

async function submitResolved(state: RelayState, facts: TaskFacts, r: Resolved, body: Record<string, unknown>, reply: FastifyReply, path: string): Promise<void> {
  const chargeable = !NEVER_CHARGED.has(r.action);
  let model = mjModel(r.mode, r.action);
  const row = await taskChannel(state, facts, model, [MJ_CHANNEL_TYPE], r.origin?.channelId);
  let hold: TaskHold | undefined = chargeable ? await holdTask(state, facts, row, model) : undefined;
  let answer: TaskAnswer;
  try {
    answer = await send(state, facts, row, path, body, r.mode);
    if (codeOf(answer) === NO_ACCOUNT_CODE && r.mode === 'fast' && !r.origin) {
      releaseTask(state, hold);
      r.mode = 'relax';
      model = mjModel('relax', r.action);
      hold = chargeable ? await holdTask(state, facts, row, model) : undefined;
      answer = await send(state, facts, row, path, body, 'relax');
    }
  } catch (error) {
    releaseTask(state, hold);
    throw refuseTask(state, facts, row, unreachable(error), '/mj', hold);
  }
  const code = codeOf(answer);
  const json = (answer.json && typeof answer.json === 'object' && !Array.isArray(answer.json) ? answer.json : {}) as Record<string, any>;
  // An HTTP error or an answer that is not Midjourney-Proxy's `{code, …}` is an outside failure, told generically.
  const broken = answer.status !== 200 || code === -1;
  const accepted = !broken && ACCEPTED_CODES.has(code) && (r.action !== 'SWAP_FACE' || code === 1);
  // A Midjourney refusal (banned prompt, bad parameter) is about the request: its description, scrubbed, is the reason.
  const failure = accepted ? undefined : broken ? answerError(answer.status, answer.text, answer.json) : new HubError(400, String(json.description ?? `code ${code}`), { code: String(code) });
  const told = failure && refuseTask(state, facts, row, failure, '/mj', hold);
  const reason = failure && withRequestId(outsideFailure(failure, row, false).message, facts.requestId);
  const now = Date.now();
  const props = json.properties && typeof json.properties === 'object' ? json.properties : {};
  const mjId = typeof json.result === 'string' ? json.result : '';
  const finished = accepted && ((code === 21 && props.status === 'SUCCESS') || r.action === 'UPLOAD');
  let quota = 0;
  if (accepted && hold) quota = settleTask(state, facts, hold, `${r.action} ${typeof json.result === 'string' ? json.result : ''}`.trim());
  else releaseTask(state, hold);
  await insertMidjourney(state.ctx.db, {
    code,
    user_id: facts.caller.user.id,
    token_id: facts.caller.token.id,
    action: r.action,
    mj_id: mjId,
    prompt: typeof body.prompt === 'string' ? body.prompt : (r.origin?.prompt ?? ''),
    description: reason ?? (typeof json.description === 'string' ? scrubIdentity(json.description, row, false) : ''),
    submit_time: now,
    finish_time: finished || !accepted ? now : 0,
    image_url: typeof props.imageUrl === 'string' ? props.imageUrl : '',
    status: !accepted ? 'FAILURE' : finished ? 'SUCCESS' : (typeof props.status === 'string' && props.status) || 'SUBMITTED',
    progress: finished || !accepted ? '100%' : '0%',
    fail_reason: reason?.slice(0, 500) ?? '',
    channel_id: row.id,
    quota,
    ...planColumns(hold),
    ...limitColumns(facts, hold, quota),
    ...chargeColumns(hold),
    properties: JSON.stringify(props),
    mode: r.mode,
  });
  if (accepted && !finished) taskPollers(state).midjourney.wake();
  // An existing task's properties carry the upstream image URL: the client gets the gateway's link.
  // (An upload's `result` lists the Discord URLs the caller asked for, kept as they are.)
  if (broken) throw told;
  const shownJson = told ? { ...json, description: told.message } : json;
  const linked = json.properties ? { ...shownJson, properties: withLinks(json.properties, () => imageLink(state.ctx.options.get('ServerAddress'), row, mjId)) } : shownJson;
  return reply.status(200).send({ ...linked, code: rewriteCode(code, r.action) });
}
