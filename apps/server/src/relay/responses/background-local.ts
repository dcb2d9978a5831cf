import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EVENTS } from '../../cache/events.js';
import { HubError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { endBackground, failOrphanedLocal, findBackground, deleteBackground, insertBackground, saveLocalProgress, type BackgroundRow } from '../../db/repos/background-responses.js';
import { findStoredResponse, insertStoredResponse, updateStoredResponse } from '../../db/repos/stored-responses.js';
import type { Prepared } from '../pipeline/flow/prepare.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { doorHeaders, runThroughDoor } from './ws-door.js';
import type { FrameOut } from './ws-session.js';
import { TERMINAL } from './background.js';

type Action = 'retrieve' | 'delete' | 'cancel' | 'input_items';
type Json = Record<string, unknown>;

/** The code of a background run the gateway could not record (nothing ran, nothing is billed). */
export const BACKGROUND_NOT_STARTED = 'background_not_started';

/** Ids of responses the gateway runs itself (upstream never saw them). */
const PREFIX = 'resp_bg';
export const isLocalId = (id: string) => id.startsWith(PREFIX);

/** A run without news for this long, on a node that no longer runs it, has died with its process. */
const ORPHAN_SECONDS = 600;
/** Progress is written at most this often between the response's own status events. */
const SAVE_MS = 1000;

/** A run of this process: its events so far, who follows them, how to stop it. */
interface Live {
  current: Json;
  events: Json[];
  followers: Set<() => void>;
  controller: AbortController;
  cancelled: boolean;
  ended: boolean;
  done: Promise<void>;
}

const live = new Map<string, Live>();

/** Stops a run of this process, if it is one; answers whether it was. */
function stopRun(id: string): Live | undefined {
  const run = live.get(id);
  if (!run) return undefined;
  run.cancelled = true;
  run.controller.abort();
  return run;
}

/**
 * Every node hears cancels of runs another node started; at start-up (master), runs a process
 * that has gone left behind are ended as failed.
 */
export function startLocalRuns(state: RelayState): void {
  state.ctx.store.subscribe(EVENTS.backgroundCancel, (id) => void stopRun(id));
  if (state.ctx.config.NODE_TYPE !== 'master') return;
  void failOrphanedLocal(state.ctx.db, state.leases.node, nowSeconds(), ORPHAN_SECONDS).catch((e) => state.ctx.log.warn({ err: e }, 'orphaned background runs not ended'));
}

/**
 * `background: true` for a channel that cannot keep a response upstream (a converted family):
 * the caller gets a `queued` response under the gateway's own id at once, and the gateway runs the
 * request itself through `POST /v1/responses` (streaming, in-process), so admission, holds, limits
 * and billing are the door's own; the events and the final response are kept under that id.
 */
export async function startLocalBackground(state: RelayState, req: FastifyRequest, reply: FastifyReply, p: Prepared): Promise<void> {
  const body = p.body as Json;
  const id = `${PREFIX}${randomBytes(20).toString('hex')}`;
  const now = nowSeconds();
  const queued: Json = {
    id,
    object: 'response',
    created_at: now,
    status: 'queued',
    background: true,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: body.metadata ?? {},
    model: p.model,
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    store: true,
    temperature: body.temperature ?? null,
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? null,
    usage: null,
  };
  const text = JSON.stringify(queued);
  const { user, token } = p.caller;
  const hours = Math.max(1, state.ctx.options.get('ResponsesRetentionHours'));
  try {
    await insertBackground(state.ctx.db, { id, kind: 'local', status: 'pending', user_id: user.id, token_id: token.id, channel_id: 0, facts: '{}', held: 0, billed: 0, response: text, events: '[]', node: state.leases.node, created_at: now, updated_at: now });
    await insertStoredResponse(state.ctx.db, { id, user_id: user.id, channel_id: 0, model: p.model, items: '[]', response: text, created_at: now, expires_at: now + hours * 3600 });
  } catch (error) {
    // The gateway's own failure, not the channel's: answered as it is, never retried elsewhere.
    state.ctx.log.error({ err: error, id }, 'background response not recorded');
    throw new HubError(500, 'the background response could not be started; try again', { type: 'server_error', code: BACKGROUND_NOT_STARTED });
  }
  const { background: _background, stream: _stream, ...rest } = body;
  const run: Live = { current: queued, events: [], followers: new Set(), controller: new AbortController(), cancelled: false, ended: false, done: Promise.resolve() };
  live.set(id, run);
  const request = { headers: doorHeaders(req.headers), remoteAddress: req.ip, body: rest };
  // After this request has left (its in-flight slot too): the run is a request of its own.
  run.done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => runLocal(state, req, id, run, request));
  reply.status(200).header('content-type', 'application/json').send(text);
}

async function runLocal(state: RelayState, req: FastifyRequest, id: string, run: Live, request: Parameters<typeof runThroughDoor>[1]): Promise<void> {
  const db = state.ctx.db;
  let innerId: string | undefined;
  let saving: Promise<void> = Promise.resolve();
  let savedAt = 0;
  const save = () => {
    savedAt = Date.now();
    const response = JSON.stringify(run.current);
    const events = JSON.stringify(run.events);
    saving = saving.then(() => saveLocalProgress(db, id, response, events, nowSeconds())).catch((e) => state.ctx.log.warn({ err: e, id }, 'background progress not saved'));
  };
  const out: FrameOut = {
    emit(frame) {
      let event: Json;
      try {
        event = JSON.parse(frame) as Json;
      } catch {
        return;
      }
      let changed = false;
      if (event.response && typeof event.response === 'object') {
        const response = event.response as Json;
        if (typeof response.id === 'string') innerId ??= response.id;
        event.response = run.current = { ...response, id, background: true };
        changed = true;
      } else if (event.type === 'error') {
        run.current = { ...run.current, status: 'failed', error: { code: (event.error as Json | undefined)?.code ?? 'server_error', message: (event.error as Json | undefined)?.message ?? 'the request failed' } };
        changed = true;
      }
      // The gateway's own numbering: one sequence from 0 whatever the door emitted.
      event.sequence_number = run.events.length;
      run.events.push(event);
      for (const follow of run.followers) follow();
      if (changed || Date.now() - savedAt >= SAVE_MS) save();
    },
    drained: () => undefined,
  };
  try {
    await runThroughDoor(req.server, request, out, run.controller.signal);
  } catch (error) {
    state.ctx.log.warn({ err: error, id }, 'background response run failed');
    if (!run.cancelled) run.current = { ...run.current, status: 'failed', error: { code: 'server_error', message: 'the request failed' } };
  }
  if (run.cancelled) run.current = { ...run.current, status: 'cancelled' };
  else if (!TERMINAL.has(String(run.current.status))) run.current = { ...run.current, status: 'failed', error: run.current.error ?? { code: 'server_error', message: 'the response ended before it completed' } };
  save();
  await saving;
  const final = JSON.stringify(run.current);
  await endBackground(db, id, String(run.current.status), 0, nowSeconds(), final).catch((e) => state.ctx.log.warn({ err: e, id }, 'background end not saved'));
  // The conversation the door kept under its own id continues under this one (previous_response_id, input_items).
  const inner = innerId ? await findStoredResponse(db, innerId).catch(() => undefined) : undefined;
  await updateStoredResponse(db, id, inner?.items ? { items: inner.items, response: final } : { response: final }).catch((e) => state.ctx.log.warn({ err: e, id }, 'background response not kept'));
  run.ended = true;
  live.delete(id);
  for (const follow of run.followers) follow();
}

/** A run no node will finish (its process is gone): ended as failed when it is next looked at. */
async function settleOrphan(state: RelayState, row: BackgroundRow): Promise<Json> {
  const response = JSON.parse(row.response ?? '{}') as Json;
  if (row.status !== 'pending' || row.node === state.leases.node || Number(row.updated_at) > nowSeconds() - ORPHAN_SECONDS) return response;
  const failed = { ...response, status: 'failed', error: { code: 'server_error', message: 'the gateway stopped while running this response' } };
  await endBackground(state.ctx.db, row.id, 'failed', 0, nowSeconds(), JSON.stringify(failed));
  return failed;
}

/** Retrieve (and its resumable stream), cancel and delete of a response the gateway runs; input_items from the kept conversation. */
export async function serveLocal(state: RelayState, req: FastifyRequest, reply: FastifyReply, row: BackgroundRow, action: Action, kept: () => Promise<unknown>): Promise<unknown> {
  const run = live.get(row.id);
  switch (action) {
    case 'retrieve':
      if (String((req.query as Json).stream) === 'true') return streamEvents(req, reply, row, run);
      return run ? run.current : settleOrphan(state, row);
    case 'cancel':
      if (stopRun(row.id)) {
        await run!.done;
        return run!.current;
      }
      if (row.status === 'pending') {
        // Run by another node (which stops it on the notice; what it already used is billed there), or by none.
        const cancelled = { ...(JSON.parse(row.response ?? '{}') as Json), status: 'cancelled' };
        if (await endBackground(state.ctx.db, row.id, 'cancelled', 0, nowSeconds(), JSON.stringify(cancelled))) {
          await state.ctx.store.publish(EVENTS.backgroundCancel, row.id);
          return cancelled;
        }
      }
      return JSON.parse((await findBackground(state.ctx.db, row.id))?.response ?? row.response ?? '{}');
    case 'delete':
      if (stopRun(row.id)) await run!.done;
      else if (row.status === 'pending') await state.ctx.store.publish(EVENTS.backgroundCancel, row.id);
      await deleteBackground(state.ctx.db, row.id);
      return kept();
    case 'input_items':
      return kept();
  }
}

/** The events after `starting_after`, then (while the run goes on in this process) each new one until it ends. */
async function streamEvents(req: FastifyRequest, reply: FastifyReply, row: BackgroundRow, run: Live | undefined): Promise<FastifyReply> {
  const after = Number((req.query as Json).starting_after ?? -1);
  const from = Number.isFinite(after) ? after + 1 : 0;
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-oneapi-request-id': req.id });
  const write = (e: Json) => reply.raw.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
  const events = run ? run.events : (JSON.parse(row.events ?? '[]') as Json[]);
  let next = from;
  for (; next < events.length; next++) write(events[next]);
  if (run && !run.ended) {
    await new Promise<void>((resolve) => {
      const follow = () => {
        for (; next < run.events.length; next++) write(run.events[next]);
        if (run.ended || reply.raw.destroyed) {
          run.followers.delete(follow);
          resolve();
        }
      };
      run.followers.add(follow);
      reply.raw.once('close', follow);
    });
  }
  reply.raw.end();
  return reply;
}
