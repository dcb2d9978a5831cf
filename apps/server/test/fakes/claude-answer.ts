import { createHash } from 'node:crypto';
import type { Faults, StreamPacing } from './fake-http.js';

/**
 * How a Claude fake (Anthropic, Bedrock, Vertex) answers, chosen per credential.
 * Usage is fixed so billing is predictable: 10 uncached input tokens, one
 * output token per word of text and thinking, plus 10 per tool call.
 */
export interface ClaudeBehaviour extends StreamPacing, Faults {
  status?: number;
  /** Replaces the error body of `status` (default: Anthropic's error shape). */
  errorBody?: unknown;
  retryAfter?: number;
  delayMs?: number;
  /** Text of the answer (streamed word by word). */
  content?: string;
  /** Answer with a thinking block (signed); a request enabling thinking gets one without this. */
  thinking?: string;
  /** Call a tool when the request offers tools (name defaults to the first tool; tool_choice any/tool forces a call anyway). */
  toolUse?: { name?: string; input?: Record<string, unknown> };
  /** Prompt-cache numbers reported beside the 10 uncached input tokens. */
  cache?: { read?: number; creation?: number };
  /** Send an `error` event (overloaded_error) after this many text deltas instead of finishing. */
  errorAfterChunks?: number;
  /** The tier reported for a request that allows Priority Tier (`service_tier` auto or unset); default `standard`. */
  serviceTier?: 'standard' | 'priority';
}

export interface ClaudeError {
  status: number;
  type: string;
  message: string;
}

export const CLAUDE_INPUT_TOKENS = 10;
export const CLAUDE_TOOL_TOKENS = 10;

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function claudeErrorBody(status: number, message?: string) {
  const type = ERROR_TYPES[status] ?? 'api_error';
  return { type: 'error', error: { type, message: message ?? `fake ${type}` } };
}

/** The signature the fake gives a thinking text; a thinking block sent back must carry exactly this. */
export function thinkingSignature(thinking: string): string {
  return createHash('sha256').update(`fake-claude:${thinking}`).digest('base64');
}

const invalid = (message: string): ClaudeError => ({ status: 400, type: 'invalid_request_error', message });

/**
 * Checks a Messages body the way the API does. `platform` says where it
 * arrived: Bedrock and Vertex carry the model in the URL and the API version
 * in the body.
 */
export function checkClaudeRequest(body: any, platform: 'anthropic' | 'bedrock' | 'vertex'): ClaudeError | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return invalid('body: Input should be an object');
  if (platform === 'anthropic' && typeof body.model !== 'string') return invalid('model: Field required');
  if (platform !== 'anthropic') {
    if (body.model !== undefined) return invalid(`model: Extra inputs are not permitted`);
    const version = platform === 'bedrock' ? 'bedrock-2023-05-31' : 'vertex-2023-10-16';
    if (body.anthropic_version !== version) return invalid(`anthropic_version: Input should be '${version}'`);
  }
  if (typeof body.max_tokens !== 'number') return invalid('max_tokens: Field required');
  if (body.service_tier != null && body.service_tier !== 'auto' && body.service_tier !== 'standard_only') return invalid("service_tier: Input should be 'auto' or 'standard_only'");
  if (body.speed != null && body.speed !== 'standard' && body.speed !== 'fast') return invalid("speed: Input should be 'standard' or 'fast'");
  if (!Array.isArray(body.messages) || body.messages.length === 0) return invalid('messages: at least one message is required');
  const thinking = body.thinking;
  if (thinking?.type === 'enabled') {
    if (typeof thinking.budget_tokens !== 'number' || thinking.budget_tokens < 1024) return invalid('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    if (body.max_tokens <= thinking.budget_tokens) return invalid('`max_tokens` must be greater than `thinking.budget_tokens`');
  }
  let previous = '';
  for (const [i, m] of body.messages.entries()) {
    if (m?.role === 'system') {
      return invalid('messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.');
    }
    if (m?.role !== 'user' && m?.role !== 'assistant') return invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (i === 0 && m.role !== 'user') return invalid('messages: first message must use the "user" role');
    if (m.role === previous) return invalid(`messages: roles must alternate between "user" and "assistant", but found multiple "${m.role}" roles in a row`);
    previous = m.role;
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) return invalid(`messages.${i}.content: Field required`);
    if (Array.isArray(m.content)) {
      for (const [j, block] of m.content.entries()) {
        if (block?.type === 'thinking' && block.signature !== thinkingSignature(String(block.thinking ?? ''))) {
          return invalid(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
        }
      }
    }
  }
  return null;
}

export interface ClaudeAnswer {
  thinking?: string;
  words: string[];
  tool?: { id: string; name: string; input: Record<string, unknown> };
  stopReason: 'end_turn' | 'max_tokens' | 'tool_use';
  usage: Record<string, number>;
  /** What the answer's usage reports besides the counts: the tier that served it and its speed. */
  service: { service_tier: string; speed: string };
}

/** What the model "says" for a checked request. */
export function claudeAnswer(body: any, b: ClaudeBehaviour): ClaudeAnswer {
  const enabled = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive';
  const thinking = b.thinking ?? (enabled ? 'Let me think about this request.' : undefined);
  let words = (b.content ?? 'Hello from the fake Claude').split(' ');
  let stopReason: ClaudeAnswer['stopReason'] = 'end_turn';
  const budget = body.max_tokens - (thinking ? thinking.split(' ').length : 0);
  if (words.length > budget) {
    words = words.slice(0, Math.max(budget, 0));
    stopReason = 'max_tokens';
  }
  const tools: any[] = Array.isArray(body.tools) ? body.tools : [];
  const choice = body.tool_choice?.type;
  let tool: ClaudeAnswer['tool'];
  if (tools.length > 0 && choice !== 'none' && stopReason !== 'max_tokens' && (b.toolUse || choice === 'any' || choice === 'tool')) {
    const name = choice === 'tool' ? body.tool_choice.name : (b.toolUse?.name ?? tools[0].name);
    tool = { id: 'toolu_01FakeToolCall0000000000', name, input: b.toolUse?.input ?? {} };
    stopReason = 'tool_use';
  }
  const output = words.length + (thinking ? thinking.split(' ').length : 0) + (tool ? CLAUDE_TOOL_TOKENS : 0);
  return {
    thinking,
    words,
    tool,
    stopReason,
    usage: {
      input_tokens: CLAUDE_INPUT_TOKENS,
      cache_creation_input_tokens: b.cache?.creation ?? 0,
      cache_read_input_tokens: b.cache?.read ?? 0,
      output_tokens: output,
    },
    service: { service_tier: body.service_tier === 'standard_only' ? 'standard' : (b.serviceTier ?? 'standard'), speed: body.speed === 'fast' ? 'fast' : 'standard' },
  };
}

const MESSAGE_ID = 'msg_01FakeClaudeAnswer000000';

/** The non-stream Messages answer. */
export function claudeMessage(model: string, a: ClaudeAnswer) {
  const content: unknown[] = [];
  if (a.thinking) content.push({ type: 'thinking', thinking: a.thinking, signature: thinkingSignature(a.thinking) });
  if (a.words.length > 0) content.push({ type: 'text', text: a.words.join(' ') });
  if (a.tool) content.push({ type: 'tool_use', id: a.tool.id, name: a.tool.name, input: a.tool.input });
  return {
    id: MESSAGE_ID,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: a.stopReason,
    stop_sequence: null,
    usage: { ...a.usage, ...a.service },
  };
}

/** One stream event; `content` marks the text deltas that pacing counts. */
export interface ClaudeEvent {
  type: string;
  data: Record<string, unknown>;
  content: boolean;
}

/** The full event sequence of a streamed answer, as the API sends it. */
export function claudeEvents(model: string, a: ClaudeAnswer, b: ClaudeBehaviour): ClaudeEvent[] {
  const events: ClaudeEvent[] = [];
  const push = (data: Record<string, unknown>, content = false) => events.push({ type: String(data.type), data, content });
  const message = claudeMessage(model, a);
  push({ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } });
  let index = 0;
  let pinged = false;
  const start = (block: Record<string, unknown>) => {
    push({ type: 'content_block_start', index, content_block: block });
    if (!pinged) push({ type: 'ping' });
    pinged = true;
  };
  const delta = (d: Record<string, unknown>, content = false) => push({ type: 'content_block_delta', index, delta: d }, content);
  const stop = () => push({ type: 'content_block_stop', index: index++ });
  if (a.thinking) {
    start({ type: 'thinking', thinking: '', signature: '' });
    for (const [i, w] of a.thinking.split(' ').entries()) delta({ type: 'thinking_delta', thinking: i === 0 ? w : ` ${w}` });
    delta({ type: 'signature_delta', signature: thinkingSignature(a.thinking) });
    stop();
  }
  if (a.words.length > 0) {
    start({ type: 'text', text: '' });
    for (const [i, w] of a.words.entries()) {
      if (b.errorAfterChunks !== undefined && i >= b.errorAfterChunks) {
        push({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
        return events;
      }
      delta({ type: 'text_delta', text: i === 0 ? w : ` ${w}` }, true);
    }
    stop();
  }
  if (a.tool) {
    start({ type: 'tool_use', id: a.tool.id, name: a.tool.name, input: {} });
    const json = JSON.stringify(a.tool.input);
    delta({ type: 'input_json_delta', partial_json: '' });
    for (let i = 0; i < json.length; i += 8) delta({ type: 'input_json_delta', partial_json: json.slice(i, i + 8) });
    stop();
  }
  push({ type: 'message_delta', delta: { stop_reason: a.stopReason, stop_sequence: null }, usage: a.usage });
  push({ type: 'message_stop' });
  return events;
}

/** Rough but stable count for count_tokens: one token per 4 characters of the counted parts. */
export function claudeCountTokens(body: any): number {
  const text = JSON.stringify([body.system ?? '', body.messages ?? [], body.tools ?? []]);
  return Math.ceil(text.length / 4);
}
