import type { FastifyReply } from 'fastify';
import { emptyUsage, type Usage } from '../providers/types.js';
import type { BufferedResponse } from './upstream.js';
import type { RelayState } from './relay-state.js';
import type { Prepared } from './prepare.js';
import type { Hold } from './handle.js';
import { releaseHold, settle } from './settle.js';
import { countText } from '../tokenizer.js';
import { exactPrompt } from './prepare.js';

/** Text the model produced in a non-stream answer, for counting when upstream reports no usage. */
function answerText(json: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const c of (json.choices as Array<Record<string, any>> | undefined) ?? []) {
    if (typeof c.message?.content === 'string') parts.push(c.message.content);
    if (typeof c.message?.reasoning_content === 'string') parts.push(c.message.reasoning_content);
    if (c.message?.tool_calls) parts.push(JSON.stringify(c.message.tool_calls));
    if (typeof c.text === 'string') parts.push(c.text);
  }
  if (typeof json.text === 'string') parts.push(json.text);
  return parts.join('\n');
}

/** Sends a complete upstream answer through unchanged and settles on its usage. */
export async function respondJson(state: RelayState, p: Prepared, hold: Hold, res: BufferedResponse, reply: FastifyReply): Promise<void> {
  const bytes = res.body;
  const contentType = String(res.headers['content-type'] ?? 'application/octet-stream');
  let usage: Usage | null = null;
  let estimated = false;
  if (contentType.includes('json')) {
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      json = undefined;
    }
    if (json?.error && typeof json.error === 'object') {
      releaseHold(state, p, hold);
      throw hold.route.adapter.mapError(400, bytes.toString('utf8'));
    }
    usage = json ? hold.route.adapter.parseUsage(p.endpoint, json) : null;
    if (!usage || (usage.promptTokens === 0 && usage.completionTokens === 0)) {
      estimated = true;
      usage = { ...emptyUsage(), promptTokens: await exactPrompt(state, p), completionTokens: json ? await countText(p.model, answerText(json)) : 0 };
    }
  } else {
    // Binary answers (speech audio) and plain-text transcripts: billed on the prompt and any text returned.
    estimated = true;
    const text = contentType.startsWith('text/') ? bytes.toString('utf8') : '';
    usage = { ...emptyUsage(), promptTokens: await exactPrompt(state, p), completionTokens: await countText(p.model, text) };
  }
  settle(state, p, hold, { usage, estimated, requestId: reply.request.id, ip: reply.request.ip });
  reply.status(res.statusCode).header('content-type', contentType).send(bytes);
}
