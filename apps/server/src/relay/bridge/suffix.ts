import type { HubRequest, ReasoningEffort } from '../formats/index.js';
import type { Endpoint } from '../providers/types.js';
import type { ConvertSettings } from './request.js';

/**
 * The model-name suffix `model#arg` (relay.md §1.4): `#<effort>` sets the reasoning
 * effort, `#thinking` turns on extended thinking. Other arguments are ignored.
 */
const EFFORTS = new Set<string>(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);

export const effortOf = (arg: string | undefined): ReasoningEffort | undefined => (arg && EFFORTS.has(arg) ? (arg as ReasoningEffort) : undefined);

/** The suffix applied to a hub request (conversions to any family read it from there). */
export function suffixHub(hub: HubRequest, arg: string | undefined): HubRequest {
  const effort = effortOf(arg);
  if (effort) return { ...hub, reasoning_effort: effort };
  if (arg === 'thinking' && !hub.reasoning && !hub.reasoning_effort) return { ...hub, reasoning: {} };
  return hub;
}

/** The suffix applied to a body passed through in its own format; the caller's explicit choice wins. */
export function suffixBody(endpoint: Endpoint, body: Record<string, unknown>, arg: string | undefined, settings: ConvertSettings, model: string): Record<string, unknown> {
  const effort = effortOf(arg);
  if (effort && endpoint === 'chat/completions' && body.reasoning_effort === undefined) return { ...body, reasoning_effort: effort };
  if (effort && endpoint === 'responses' && !body.reasoning) return { ...body, reasoning: { effort } };
  if (arg === 'thinking' && endpoint === 'messages' && !body.thinking) {
    const maxTokens = typeof body.max_tokens === 'number' && body.max_tokens > 0 ? body.max_tokens : settings.claudeDefaultMaxTokens(model);
    const budget = Math.max(1024, Math.floor(maxTokens * settings.claudeBudgetPercentage));
    // Anthropic needs max_tokens above the budget.
    return { ...body, max_tokens: Math.max(maxTokens, budget + 1024), thinking: { type: 'enabled', budget_tokens: budget } };
  }
  return body;
}
