import { FormatError, type Converted } from '../shared/errors.js';
import { warnUnknownKeys } from '../shared/json.js';
import type { HubContentPart, HubMessage, HubRequest, HubToolChoice, ReasoningEffort } from '../openai/types.js';
import type { ResponsesFunctionTool, ResponsesInputContent, ResponsesInputItem, ResponsesOtherItem, ResponsesRequest } from './types.js';

const HANDLED = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning', 'max_output_tokens', 'temperature', 'top_p',
  'text', 'stream', 'store', 'previous_response_id', 'user', 'metadata', 'prompt_cache_key', 'include', 'truncation', 'service_tier',
]);

function contentToHub(content: string | ResponsesInputContent[], warnings: string[], at: string): string | HubContentPart[] {
  if (typeof content === 'string') return content;
  const parts: HubContentPart[] = [];
  content.forEach((c, j) => {
    if (c.type === 'input_text' || c.type === 'output_text') parts.push({ type: 'text', text: c.text });
    else if (c.type === 'refusal') parts.push({ type: 'text', text: c.refusal });
    else if (c.type === 'input_image' && c.image_url) parts.push({ type: 'image_url', image_url: { url: c.image_url, ...(c.detail ? { detail: c.detail } : {}) } });
    else if (c.type === 'input_file' && (c.file_data || c.file_id)) parts.push({ type: 'file', file: { ...(c.file_data ? { file_data: c.file_data } : {}), ...(c.file_id ? { file_id: c.file_id } : {}), ...(c.filename ? { filename: c.filename } : {}) } });
    else warnings.push(`${at}.content.${j}: dropped ${c.type} (no chat equivalent)`);
  });
  return parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('') : parts;
}

function itemsToMessages(items: Array<ResponsesInputItem | ResponsesOtherItem>, warnings: string[]): HubMessage[] {
  const out: HubMessage[] = [];
  let reasoning = '';
  // The assistant message function calls attach to: the one just before them, if nothing came between.
  const openAssistant = (): HubMessage => {
    const last = out[out.length - 1];
    if (last?.role === 'assistant') return last;
    const m: HubMessage = { role: 'assistant', content: null };
    out.push(m);
    return m;
  };
  const takeReasoning = (m: HubMessage) => {
    if (reasoning) m.reasoning_content = (m.reasoning_content ?? '') + reasoning;
    reasoning = '';
  };
  items.forEach((raw, i) => {
    const at = `input.${i}`;
    const it = raw as ResponsesInputItem;
    if (it.type === undefined || it.type === 'message') {
      const msg = it as Extract<ResponsesInputItem, { role: string }>;
      const m: HubMessage = { role: msg.role, content: contentToHub(msg.content, warnings, at) };
      if (m.role === 'assistant') takeReasoning(m);
      out.push(m);
    } else if (it.type === 'function_call') {
      const m = openAssistant();
      takeReasoning(m);
      (m.tool_calls ??= []).push({ id: it.call_id, type: 'function', function: { name: it.name, arguments: it.arguments } });
    } else if (it.type === 'function_call_output') {
      out.push({ role: 'tool', tool_call_id: it.call_id, content: typeof it.output === 'string' ? it.output : contentToHub(it.output, warnings, at) });
    } else if (it.type === 'reasoning') {
      reasoning += [...(it.summary ?? []), ...(it.content ?? [])].map((s) => s.text).join('\n');
      if (it.encrypted_content) warnings.push(`${at}: encrypted reasoning dropped (only OpenAI can read it)`);
    } else warnings.push(`${at}: dropped item of type "${raw.type}"`);
  });
  return out;
}

function toolChoice(tc: ResponsesRequest['tool_choice'], warnings: string[]): HubToolChoice | undefined {
  if (tc === undefined) return undefined;
  if (typeof tc === 'string') return tc;
  if (tc.type === 'function' && typeof tc.name === 'string') return { type: 'function', function: { name: tc.name } };
  warnings.push(`tool_choice of type "${tc.type}" dropped`);
  return undefined;
}

export interface ResponsesToHubOptions {
  /** Earlier turns restored by the gateway for `previous_response_id`; without them such a request is refused. */
  previousMessages?: HubMessage[];
}

/** OpenAI Responses API request → hub (chat) request. */
export function responsesRequestToHub(req: ResponsesRequest, opts: ResponsesToHubOptions = {}): Converted<HubRequest> {
  const warnings: string[] = [];
  warnUnknownKeys(req, HANDLED, 'request', warnings);
  if (req.previous_response_id && !opts.previousMessages) {
    throw new FormatError('previous_response_id is not supported for this model; send the full conversation in input', 'previous_response_id');
  }
  const messages: HubMessage[] = [];
  if (req.instructions) messages.push({ role: 'system', content: req.instructions });
  if (opts.previousMessages) messages.push(...opts.previousMessages.filter((m) => !(req.instructions && m.role === 'system')));
  if (typeof req.input === 'string') messages.push({ role: 'user', content: req.input });
  else if (req.input) messages.push(...itemsToMessages(req.input, warnings));

  const out: HubRequest = { model: req.model, messages };
  if (req.stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  if (req.max_output_tokens != null) out.max_tokens = req.max_output_tokens;
  if (req.temperature != null) out.temperature = req.temperature;
  if (req.top_p != null) out.top_p = req.top_p;
  if (req.parallel_tool_calls !== undefined) out.parallel_tool_calls = req.parallel_tool_calls;
  if (req.user) out.user = req.user;
  if (req.prompt_cache_key) out.prompt_cache_key = req.prompt_cache_key;
  if (req.reasoning?.effort) out.reasoning_effort = req.reasoning.effort as ReasoningEffort;
  for (const t of req.tools ?? []) {
    if (t.type !== 'function') {
      warnings.push(`tools: ${t.type} tool dropped (only function tools convert)`);
      continue;
    }
    const f = t as ResponsesFunctionTool;
    (out.tools ??= []).push({ type: 'function', function: { name: f.name, ...(f.description ? { description: f.description } : {}), parameters: f.parameters ?? { type: 'object', properties: {} }, ...(f.strict != null ? { strict: f.strict } : {}) } });
  }
  const tc = toolChoice(req.tool_choice, warnings);
  if (tc) out.tool_choice = tc;
  const fmt = req.text?.format;
  if (fmt?.type === 'json_object') out.response_format = { type: 'json_object' };
  else if (fmt?.type === 'json_schema') {
    out.response_format = { type: 'json_schema', json_schema: { name: fmt.name, schema: fmt.schema, ...(fmt.strict != null ? { strict: fmt.strict } : {}), ...(fmt.description ? { description: fmt.description } : {}) } };
  }
  return { value: out, warnings };
}
