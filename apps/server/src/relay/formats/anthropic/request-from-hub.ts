import type { Converted } from '../shared/errors.js';
import { warnUnknownKeys } from '../shared/json.js';
import type { HubRequest, HubToolChoice, ReasoningEffort } from '../openai/types.js';
import { messagesToAnthropic } from './messages-from-hub.js';
import type { AnthropicRequest, AnthropicTextBlock, AnthropicToolChoice } from './types.js';

export interface HubToAnthropicOptions {
  /** max_tokens when the caller gave none (Anthropic requires it). */
  defaultMaxTokens: number;
  /** Share of max_tokens used as thinking budget when thinking is asked for without a size (ClaudeBudgetTokensPercentage). */
  budgetPercentage: number;
  /** Force thinking on (e.g. a `#thinking` model suffix). */
  thinking?: boolean;
}

const HANDLED = new Set([
  'model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'top_k', 'stop',
  'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'reasoning_effort', 'reasoning', 'user',
]);
const EFFORT_SHARE: Partial<Record<ReasoningEffort, number>> = { minimal: 0.1, low: 0.2, medium: 0.5, high: 0.8, xhigh: 0.9 };
const MIN_BUDGET = 1024;

/** The thinking budget the request asks for, or null for no thinking. */
export function thinkingBudget(req: HubRequest, maxTokens: number, opts: HubToAnthropicOptions): number | null {
  const effort = req.reasoning?.effort ?? req.reasoning_effort;
  if (effort === 'none') return null;
  if (req.reasoning?.max_tokens) return Math.max(MIN_BUDGET, req.reasoning.max_tokens);
  if (!effort && !req.reasoning && !opts.thinking) return null;
  const share = (effort && EFFORT_SHARE[effort]) || opts.budgetPercentage;
  return Math.max(MIN_BUDGET, Math.floor(maxTokens * share));
}

function toolChoice(tc: HubToolChoice | undefined, parallel: boolean | undefined): AnthropicToolChoice | undefined {
  let out: AnthropicToolChoice | undefined;
  if (tc === 'auto' || tc === 'none') out = { type: tc };
  else if (tc === 'required') out = { type: 'any' };
  else if (tc && typeof tc === 'object') out = { type: 'tool', name: tc.function.name };
  if (parallel === false) out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}

/** Hub (OpenAI chat) request → Anthropic Messages request. */
export function hubRequestToAnthropic(req: HubRequest, opts: HubToAnthropicOptions): Converted<AnthropicRequest> {
  const warnings: string[] = [];
  warnUnknownKeys(req, HANDLED, 'request', warnings);
  const { system, messages } = messagesToAnthropic(req.messages, warnings);
  let maxTokens = req.max_completion_tokens || req.max_tokens || opts.defaultMaxTokens;
  const out: AnthropicRequest = { model: req.model, max_tokens: maxTokens, messages };

  const fmt = req.response_format;
  if (fmt && fmt.type !== 'text') {
    const schema = fmt.type === 'json_schema' && fmt.json_schema.schema ? ` matching this JSON schema: ${JSON.stringify(fmt.json_schema.schema)}` : '';
    system.push({ type: 'text', text: `Respond only with a valid JSON object${schema}. Do not add any other text.` });
    warnings.push(`response_format ${fmt.type} approximated by a system instruction`);
  }
  if (system.length) out.system = system.some((b) => b.cache_control) ? system : joinSystem(system);
  if (req.stream) out.stream = true;
  if (req.stop != null) {
    const stops = (Array.isArray(req.stop) ? req.stop : [req.stop]).filter((s) => s.trim() !== '');
    if (stops.length) out.stop_sequences = stops;
  }
  if (req.user) out.metadata = { user_id: req.user };

  let budget = thinkingBudget(req, maxTokens, opts);
  if (budget !== null && !thinkingCanContinue(messages)) {
    budget = null;
    warnings.push('thinking disabled: the last assistant tool call has no signed thinking block to continue from');
  }
  if (budget !== null) {
    if (maxTokens <= budget) {
      maxTokens = budget + Math.max(MIN_BUDGET, maxTokens);
      warnings.push(`max_tokens raised to ${maxTokens} to leave room above the thinking budget`);
      out.max_tokens = maxTokens;
    }
    out.thinking = { type: 'enabled', budget_tokens: budget };
  }
  const temperature = req.temperature ?? undefined;
  if (temperature != null) {
    if (budget !== null && temperature !== 1) warnings.push('temperature dropped: Anthropic thinking requires the default');
    else if (temperature > 1) {
      out.temperature = 1;
      warnings.push(`temperature ${temperature} lowered to 1 (Anthropic's maximum)`);
    } else out.temperature = temperature;
  }
  if (req.top_p != null) {
    if (budget !== null && req.top_p < 0.95) warnings.push('top_p dropped: Anthropic thinking allows only 0.95–1');
    else out.top_p = req.top_p;
  }
  if (req.top_k != null) {
    if (budget !== null) warnings.push('top_k dropped: not allowed with Anthropic thinking');
    else out.top_k = req.top_k;
  }

  if (req.tools?.length) {
    out.tools = req.tools.map((t) => ({
      name: t.function.name,
      ...(t.function.description ? { description: t.function.description } : {}),
      input_schema: t.function.parameters ?? { type: 'object', properties: {} },
      ...(t.cache_control ? { cache_control: t.cache_control } : {}),
    }));
  }
  let tc = toolChoice(req.tool_choice, req.parallel_tool_calls);
  if (tc && budget !== null && (tc.type === 'any' || tc.type === 'tool')) {
    warnings.push(`tool_choice ${tc.type} changed to auto: Anthropic thinking does not allow forced tool use`);
    tc = { ...tc, type: 'auto' } as AnthropicToolChoice;
    delete (tc as { name?: string }).name;
  }
  if (tc) out.tool_choice = tc;
  return { value: out, warnings };
}

/** With thinking on, Anthropic requires an assistant turn that calls tools to open with a thinking block. */
function thinkingCanContinue(messages: AnthropicRequest['messages']): boolean {
  const last = [...messages].reverse().find((m) => m.role === 'assistant');
  if (!last || !Array.isArray(last.content) || !last.content.some((b) => b.type === 'tool_use')) return true;
  return last.content[0].type === 'thinking' || last.content[0].type === 'redacted_thinking';
}

function joinSystem(blocks: AnthropicTextBlock[]): string {
  return blocks.map((b) => b.text).join('\n');
}
