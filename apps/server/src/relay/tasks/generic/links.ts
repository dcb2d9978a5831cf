import type { FastifyReply, FastifyRequest } from 'fastify';
import { TaskResultParam } from '@one-hub/contract';
import { HubError } from '../../../common/errors.js';
import { parseJsonOr } from '../../../common/json.js';
import { findChannelById, type ChannelRow } from '../../../db/repos/channels.js';
import type { TaskRow } from '../../../db/repos/tasks.js';
import { findTaskById } from '../../../db/repos/task-rows.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import { checkLink, signLink, taskFacts } from '../facts.js';
import { resultUrls, streamResult, withLinks } from '../results.js';

/** How long a result link handed to a client stays valid. */
export const LINK_SECONDS = 3600;

/** The task's channel: from the routing index when enabled, else the database (a disabled channel still serves its results). */
export async function channelOf(state: RelayState, id: number): Promise<ChannelRow | undefined> {
  return state.selector.index.byId.get(id)?.row ?? (await findChannelById(state.ctx.db, id));
}

const subject = (row: Pick<TaskRow, 'id'>, n: number) => `task:${row.id}:${n}`;

/**
 * A task's upstream data as a client reads it: each result URL becomes the gateway's signed,
 * expiring link `/task/result/<row id>/<n>` (relay.md §10.12, as Midjourney images).
 */
export async function linkedData(state: RelayState, row: Pick<TaskRow, 'id' | 'channel_id'>, data: unknown): Promise<unknown> {
  if (!resultUrls(data).length) return data;
  const channel = await channelOf(state, row.channel_id);
  const base = state.ctx.options.get('ServerAddress').replace(/\/+$/, '');
  const expires = Math.floor(Date.now() / 1000) + LINK_SECONDS;
  return withLinks(data, (n) => (channel ? `${base}/task/result/${row.id}/${n}?expires=${expires}&sig=${signLink(channel, subject(row, n), expires)}` : ''));
}

/** The n-th result file of a task, streamed: through its signed link, or to its owner's token. */
export async function serveResult(state: RelayState, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const p = TaskResultParam.safeParse(req.params);
  if (!p.success) throw new HubError(400, 'task id and result index must be whole numbers', { code: 'invalid_parameter' });
  const q = req.query as { expires?: string; sig?: string };
  const { n } = p.data;
  const row = await findTaskById(state.ctx.db, p.data.id);
  let allowed = false;
  if (q.sig) {
    const channel = row && (await channelOf(state, row.channel_id));
    allowed = !!row && !!channel && checkLink(channel, subject(row, n), Number(q.expires), q.sig);
    if (!allowed) throw new HubError(403, '链接无效或已过期', { code: 'invalid_link' });
  } else {
    const facts = await taskFacts(state, req, 'openai', false);
    allowed = !!row && row.user_id === facts.caller.user.id;
  }
  const url = allowed && row ? resultUrls(parseJsonOr<unknown>(row.data, null))[n] : undefined;
  if (!row || !url) throw new HubError(404, 'task result not found', { code: 'task_not_found' });
  return streamResult(await channelOf(state, row.channel_id), url, req, reply);
}
