import type { Converted } from '../shared/errors.js';
import { isObject, toDataUrl, warnUnknownKeys } from '../shared/json.js';
import type { HubContentPart, HubMessage, HubRequest, HubThinkingBlock, HubToolCall, HubToolChoice } from '../openai/types.js';
import { effortFromBudget } from '../openai/reasoning.js';
import type { AnthropicBlock, AnthropicMessage, AnthropicRequest, AnthropicSource, AnthropicToolChoice } from './types.js';

const HANDLED = new Set([
  'model', 'max_tokens', 'messages', 'system', 'stop_sequences', 'temperature', 'top_p', 'top_k', 'stream',
  'tools', 'tool_choice', 'thinking', 'metadata', 'output_format',
]);

/** Anthropic image/document source → an OpenAI content part. */
export function sourceToPart(source: AnthropicSource, kind: 'image' | 'document', warnings: string[]): HubContentPart | null {
  if (source.type === 'base64') {
    const url = toDataUrl(source.media_type, source.data);
    return kind === 'image' ? { type: 'image_url', image_url: { url } } : { type: 'file', file: { file_data: url } };
  }
  if (source.type === 'url') {
    if (kind === 'image') return { type: 'image_url', image_url: { url: source.url } };
    warnings.push(`document at ${source.url} dropped (URL documents have no chat equivalent)`);
    return null;
  }
  if (source.type === 'text') return { type: 'text', text: source.data };
  warnings.push(`${kind} with source type "${source.type}" dropped`);
  return null;
}

function userToHub(content: AnthropicBlock[], out: HubMessage[], warnings: string[], at: string): void {
  const parts: HubContentPart[] = [];
  for (const b of content) {
    if (b.type === 'text') parts.push(b.cache_control ? { type: 'text', text: b.text, cache_control: b.cache_control } : { type: 'text', text: b.text });
    else if (b.type === 'image' || b.type === 'document') {
      const p = sourceToPart(b.source, b.type, warnings);
      if (p) parts.push(p);
      if (b.cache_control) warnings.push(`${at}: cache_control on ${b.type} dropped`);
    } else if (b.type === 'tool_result') {
      const texts: string[] = [];
      const c = b.content;
      if (typeof c === 'string') texts.push(c);
      else for (const inner of c ?? []) {
        if (inner.type === 'text') texts.push(inner.text);
        else {
          // OpenAI tool messages carry text only: images ride in the user turn that follows.
          const p = sourceToPart(inner.source, inner.type, warnings);
          if (p) parts.push(p);
          warnings.push(`${at}: ${inner.type} inside tool_result moved to a user message`);
        }
      }
      const text = texts.join('\n');
      const msg: HubMessage = { role: 'tool', tool_call_id: b.tool_use_id, content: b.is_error ? `[tool error] ${text}` : text };
      if (b.cache_control) msg.cache_control = b.cache_control;
      out.push(msg);
    } else warnings.push(`${at}: dropped content block of type "${b.type}"`);
  }
  if (parts.length) out.push({ role: 'user', content: parts.every((p) => p.type === 'text' && !p.cache_control) ? parts.map((p) => (p as { text: string }).text).join('\n') : parts });
}

function assistantToHub(content: AnthropicBlock[], warnings: string[], at: string): HubMessage {
  const msg: HubMessage = { role: 'assistant', content: null };
  const texts: string[] = [];
  const thinking: HubThinkingBlock[] = [];
  const calls: HubToolCall[] = [];
  for (const b of content) {
    if (b.type === 'text') texts.push(b.text);
    else if (b.type === 'thinking') thinking.push({ type: 'thinking', thinking: b.thinking, signature: b.signature ?? '' });
    else if (b.type === 'redacted_thinking') thinking.push({ type: 'redacted_thinking', data: b.data });
    else if (b.type === 'tool_use') calls.push({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } });
    else warnings.push(`${at}: dropped content block of type "${b.type}"`);
  }
  if (texts.length) msg.content = texts.join('');
  if (thinking.length) {
    msg.thinking_blocks = thinking;
    const reasoning = thinking.map((t) => (t.type === 'thinking' ? t.thinking : '')).join('');
    if (reasoning) msg.reasoning_content = reasoning;
  }
  if (calls.length) msg.tool_calls = calls;
  return msg;
}

function toolChoiceToHub(tc: AnthropicToolChoice): HubToolChoice {
  if (tc.type === 'tool') return { type: 'function', function: { name: tc.name } };
  return tc.type === 'any' ? 'required' : tc.type;
}

/** Anthropic Messages request → hub (OpenAI chat) request. */
export function anthropicRequestToHub(req: AnthropicRequest): Converted<HubRequest> {
  const warnings: string[] = [];
  warnUnknownKeys(req, HANDLED, 'request', warnings);
  const messages: HubMessage[] = [];
  if (typeof req.system === 'string' && req.system) messages.push({ role: 'system', content: req.system });
  else if (Array.isArray(req.system) && req.system.length) {
    const cached = req.system.some((b) => b.cache_control);
    messages.push({
      role: 'system',
      content: cached ? req.system.map((b) => ({ type: 'text' as const, text: b.text, ...(b.cache_control ? { cache_control: b.cache_control } : {}) })) : req.system.map((b) => b.text).join('\n'),
    });
  }
  req.messages.forEach((m: AnthropicMessage, i) => {
    const blocks: AnthropicBlock[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (m.role === 'assistant') messages.push(assistantToHub(blocks, warnings, `messages.${i}`));
    else userToHub(blocks, messages, warnings, `messages.${i}`);
  });

  const out: HubRequest = { model: req.model, messages, max_tokens: req.max_tokens };
  if (req.stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  if (req.temperature !== undefined) out.temperature = req.temperature;
  if (req.top_p !== undefined) out.top_p = req.top_p;
  if (req.top_k !== undefined) out.top_k = req.top_k;
  if (req.stop_sequences?.length) out.stop = req.stop_sequences;
  if (req.metadata?.user_id) out.user = req.metadata.user_id;
  if (req.tools?.length) {
    out.tools = [];
    for (const t of req.tools) {
      if (t.type && t.type !== 'custom') {
        warnings.push(`tools: server tool "${t.name}" (${t.type}) dropped`);
        continue;
      }
      out.tools.push({
        type: 'function',
        function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.input_schema ?? { type: 'object', properties: {} } },
        ...(t.cache_control ? { cache_control: t.cache_control } : {}),
      });
    }
  }
  if (req.tool_choice) {
    out.tool_choice = toolChoiceToHub(req.tool_choice);
    if (req.tool_choice.disable_parallel_tool_use) out.parallel_tool_calls = false;
  }
  if (req.thinking?.type === 'enabled') {
    out.reasoning = { max_tokens: req.thinking.budget_tokens };
    out.reasoning_effort = effortFromBudget(req.thinking.budget_tokens);
  } else if (req.thinking?.type === 'adaptive') out.reasoning_effort = 'medium';
  const fmt = req.output_format;
  if (isObject(fmt) && fmt.type === 'json_schema') {
    out.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: fmt.schema as Record<string, unknown> } };
  }
  return { value: out, warnings };
}
