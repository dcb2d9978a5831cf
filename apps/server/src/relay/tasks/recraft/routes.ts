import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { outboundRequest as request } from '../../../egress/outbound.js';
import { parseJsonOr } from '../../../common/json.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import { handleRelay } from '../../pipeline/flow/handle.js';
import { dispatcherFor } from '../../pipeline/flow/upstream.js';
import { defaultBaseUrl } from '../../providers/index.js';
import { holdTask, releaseTask, settleTask, type TaskFacts } from '../charge.js';
import { withTaskLimits } from '../limits.js';
import { taskChannel, taskFacts } from '../facts.js';
import { baseOf, channelKey } from '../upstream.js';
import { answerError, unreachable } from '../../../egress/failure.js';
import { refuseTask } from '../refuse.js';

export const RECRAFT_CHANNEL_TYPE = 51;
const TOOLS = ['vectorize', 'removeBackground', 'clarityUpscale', 'generativeUpscale'];

/**
 * A Recraft tool call (relay.md §6.3): held and billed once as `recraft_<tool>`, forwarded to
 * the channel's Recraft base without the `/recraftAI` prefix, the answer copied back.
 */
async function tool(state: RelayState, req: FastifyRequest, reply: FastifyReply, name: string): Promise<void> {
  const facts = await taskFacts(state, req, 'openai');
  const model = `recraft_${name}`;
  return withTaskLimits(state, facts, model, () => callTool(state, facts, req, reply, name, model));
}

async function callTool(state: RelayState, facts: TaskFacts, req: FastifyRequest, reply: FastifyReply, name: string, model: string): Promise<void> {
  const channel = await taskChannel(state, facts, model, [RECRAFT_CHANNEL_TYPE]);
  const hold = await holdTask(state, facts, channel, model);
  const path = req.url.replace(/^\/recraftAI/, '').split('?')[0];
  const body = Buffer.isBuffer(req.body) ? req.body : JSON.stringify(req.body ?? {});
  let res;
  try {
    res = await request(`${baseOf(channel, defaultBaseUrl(RECRAFT_CHANNEL_TYPE))}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${channelKey(channel)}`, 'content-type': String(req.headers['content-type'] ?? 'application/json') },
      body,
      dispatcher: dispatcherFor(channel.proxy, channelKey(channel)),
      headersTimeout: 300_000,
    });
  } catch (error) {
    releaseTask(state, hold);
    throw refuseTask(state, facts, channel, unreachable(error), '/recraftAI', hold);
  }
  const text = await res.body.text();
  if (res.statusCode !== 200) {
    releaseTask(state, hold);
    throw refuseTask(state, facts, channel, answerError(res.statusCode, text, parseJsonOr<unknown>(text, undefined)), '/recraftAI', hold);
  }
  settleTask(state, facts, hold, `recraft ${name}`);
  reply.header('content-type', String(res.headers['content-type'] ?? 'application/json'));
  return reply.send(text);
}

export async function registerRecraft(app: FastifyInstance, state: RelayState): Promise<void> {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 64 * 1024 * 1024 }, (_req, body, done) => done(null, body));
  app.post('/recraftAI/v1/images/generations', (req, reply) => handleRelay(state, req, reply, 'images/generations'));
  for (const name of TOOLS) app.post(`/recraftAI/v1/images/${name}`, (req, reply) => tool(state, req, reply, name));
  app.post('/recraftAI/v1/styles', (req, reply) => tool(state, req, reply, 'styles'));
}
