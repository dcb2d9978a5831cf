import type { HubMessage, HubRequest } from '../../formats/openai/types.js';
import { textOf } from '../../formats/shared/json.js';

/** Vision models answer on the multimodal service, with content as `[{text}|{image}]` parts. */
export const isVision = (model: string) => /-vl|qvq|-omni|-audio/.test(model);

function toDashScope(m: HubMessage, vision: boolean): Record<string, unknown> {
  const role = m.role === 'developer' ? 'system' : m.role;
  const content = vision && Array.isArray(m.content)
    ? m.content.flatMap((p): Array<Record<string, unknown>> => (p.type === 'text' ? [{ text: p.text }] : p.type === 'image_url' ? [{ image: p.image_url.url }] : []))
    : vision ? [{ text: textOf(m.content) }] : textOf(m.content);
  const out: Record<string, unknown> = { role, content };
  if (m.tool_calls?.length) out.tool_calls = m.tool_calls;
  if (role === 'tool' && m.tool_call_id) out.tool_call_id = m.tool_call_id;
  return out;
}

/** OpenAI chat → DashScope generation (`result_format: message`, incremental streams). */
export function dashScopeChatBody(req: HubRequest, stream: boolean, search = false): Record<string, unknown> {
  const vision = isVision(req.model);
  const parameters: Record<string, unknown> = { result_format: 'message' };
  if (stream) parameters.incremental_output = true;
  const copy = (from: unknown, to: string) => {
    if (from !== undefined && from !== null) parameters[to] = from;
  };
  copy(req.max_completion_tokens ?? req.max_tokens, 'max_tokens');
  copy(req.temperature, 'temperature');
  copy(req.top_p, 'top_p');
  copy(req.top_k, 'top_k');
  copy(req.seed, 'seed');
  copy(req.stop, 'stop');
  copy(req.presence_penalty, 'presence_penalty');
  copy(req.tools?.length ? req.tools : undefined, 'tools');
  copy(req.tool_choice, 'tool_choice');
  copy(req.response_format, 'response_format');
  if (search) parameters.enable_search = true;
  return { model: req.model, input: { messages: (req.messages ?? []).map((m) => toDashScope(m, vision)) }, parameters };
}
