import type { AppContext } from '../../app-context.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import { probeChat, type ChatAnswer } from './probe.js';
import { PROBE_COLOUR, createProbeImage, imageAccesses } from './image.js';

export const CHECK_STATUS = { failed: 0, success: 1, unknown: 2 } as const;

export interface CheckResult {
  name: 'basic' | 'error' | 'image' | 'json_schema' | 'tools';
  status: (typeof CHECK_STATUS)[keyof typeof CHECK_STATUS];
  remark: string;
  /** The upstream answer as received (truncated). */
  raw: string;
}

export interface ModelReport {
  model: string;
  checks: CheckResult[];
}

const AZURE_TYPES = new Set([3, 55]);
const user = (content: unknown) => [{ role: 'user', content }];
const textOf = (a: ChatAnswer): string => {
  const content = a.json?.choices?.[0]?.message?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? '').join('') : '';
};
const failed = (name: CheckResult['name'], a: ChatAnswer): CheckResult => ({ name, status: CHECK_STATUS.failed, remark: a.error?.message ?? 'no answer', raw: a.raw });

/**
 * Whether an answer's model name is the one asked for: equal, or the same name with a
 * date or version suffix (`gpt-4o` → `gpt-4o-2024-08-06`, `claude-3-5-sonnet-latest` →
 * `claude-3-5-sonnet-20241022`, Gemini's `models/` prefix).
 */
export function sameModel(requested: string, returned: string): boolean {
  const a = requested.replace(/^models\//, '').toLowerCase();
  const b = returned.replace(/^models\//, '').toLowerCase();
  if (a === b) return true;
  const base = a.replace(/-(latest|preview|\d{4}-?\d{2}-?\d{2}|\d{3,})$/, '');
  return b.startsWith(`${base}-`) && /^[-\w.]*$/.test(b.slice(base.length)) && /\d/.test(b.slice(base.length));
}

async function basic(ctx: AppContext, channel: ChannelRow, model: string): Promise<CheckResult> {
  const a = await probeChat(ctx, channel, model, { messages: user('hi'), max_tokens: 20 });
  if (!a.json) return failed('basic', a);
  const usage = a.json.usage as { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | undefined;
  const remarks: string[] = [];
  let status: CheckResult['status'] = CHECK_STATUS.success;
  if (!usage || !(Number(usage.total_tokens ?? 0) + Number(usage.prompt_tokens ?? 0) > 0)) {
    status = CHECK_STATUS.failed;
    remarks.push('no usage in the answer');
  } else remarks.push(`usage ${usage.prompt_tokens ?? 0}+${usage.completion_tokens ?? 0} tokens`);
  if (AZURE_TYPES.has(channel.type)) remarks.push('model name not checked (Azure names deployments)');
  else if (!a.upstreamModel) remarks.push('the answer names no model');
  else if (!sameModel(model, a.upstreamModel)) {
    status = CHECK_STATUS.failed;
    remarks.push(`answered by ${a.upstreamModel}, not ${model}`);
  } else remarks.push(`model ${a.upstreamModel}`);
  return { name: 'basic', status, remark: remarks.join('; '), raw: a.raw };
}

/** A request no provider should accept; the error text shows how many gateways relayed it. */
async function errorProbe(ctx: AppContext, channel: ChannelRow, model: string): Promise<CheckResult> {
  const a = await probeChat(ctx, channel, model, { messages: [{ role: 'invalid_role', content: 'hi' }], max_tokens: 5 });
  if (a.json) return { name: 'error', status: CHECK_STATUS.unknown, remark: 'the upstream accepted an invalid request', raw: a.raw };
  const relays = ((a.raw || a.error?.message || '').match(/request id/gi) ?? []).length;
  return { name: 'error', status: CHECK_STATUS.success, remark: `rejected as expected; ${relays} relay request id(s) in the error`, raw: a.raw };
}

async function image(ctx: AppContext, channel: ChannelRow, model: string): Promise<CheckResult> {
  const id = await createProbeImage(ctx);
  const url = `${ctx.options.get('ServerAddress').replace(/\/+$/, '')}/api/image/${id}`;
  const prompt = [
    { type: 'text', text: 'What colour is this image? Answer with one English word.' },
    { type: 'image_url', image_url: { url } },
  ];
  const a = await probeChat(ctx, channel, model, { messages: user(prompt), max_tokens: 20 });
  const fetches = await imageAccesses(ctx, id);
  const fetched = fetches.length ? `image fetched ${fetches.length}× (${[...new Set(fetches.map((f) => f.remark || f.user_agent))].join(', ')})` : 'image never fetched from this server';
  if (!a.json) return { ...failed('image', a), remark: `${a.error?.message ?? 'no answer'}; ${fetched}` };
  const seen = new RegExp(`${PROBE_COLOUR}|红`, 'i').test(textOf(a));
  return { name: 'image', status: seen ? CHECK_STATUS.success : CHECK_STATUS.unknown, remark: `${seen ? 'described the image' : `answer does not name the colour: ${textOf(a).slice(0, 80)}`}; ${fetched}`, raw: a.raw };
}

async function jsonSchema(ctx: AppContext, channel: ChannelRow, model: string): Promise<CheckResult> {
  const schema = { type: 'object', properties: { city: { type: 'string' }, temperature: { type: 'number' } }, required: ['city', 'temperature'], additionalProperties: false };
  const a = await probeChat(ctx, channel, model, {
    messages: user('Give a plausible current weather for Paris as JSON with city and temperature (Celsius).'),
    response_format: { type: 'json_schema', json_schema: { name: 'weather', strict: true, schema } },
    max_tokens: 100,
  });
  if (!a.json) return failed('json_schema', a);
  try {
    const value = JSON.parse(textOf(a)) as { city?: unknown; temperature?: unknown };
    const okShape = typeof value.city === 'string' && typeof value.temperature === 'number';
    return { name: 'json_schema', status: okShape ? CHECK_STATUS.success : CHECK_STATUS.failed, remark: okShape ? 'answer follows the schema' : 'answer is JSON but not of the schema', raw: a.raw };
  } catch {
    return { name: 'json_schema', status: CHECK_STATUS.failed, remark: 'answer is not JSON', raw: a.raw };
  }
}

async function tools(ctx: AppContext, channel: ChannelRow, model: string): Promise<CheckResult> {
  const fn = (name: string, description: string) => ({
    type: 'function',
    function: { name, description, parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
  });
  const a = await probeChat(ctx, channel, model, {
    messages: user('Use the tools to compute 3 + 4 and 5 * 6.'),
    tools: [fn('add', 'Adds two numbers'), fn('multiply', 'Multiplies two numbers')],
    tool_choice: 'auto',
    max_tokens: 200,
  });
  if (!a.json) return failed('tools', a);
  const calls = (a.json.choices?.[0]?.message?.tool_calls ?? []) as Array<{ function?: { name?: string; arguments?: string } }>;
  const valid = calls.filter((c) => {
    try {
      return ['add', 'multiply'].includes(c.function?.name ?? '') && typeof JSON.parse(c.function?.arguments ?? '').a === 'number';
    } catch {
      return false;
    }
  });
  if (!valid.length) return { name: 'tools', status: CHECK_STATUS.failed, remark: calls.length ? 'tool calls with unknown names or bad arguments' : 'no tool call', raw: a.raw };
  return { name: 'tools', status: CHECK_STATUS.success, remark: `${valid.length} tool call(s): ${valid.map((c) => c.function!.name).join(', ')}`, raw: a.raw };
}

/** The five probes of relay.md §7.4 for one model, one after another. */
export async function checkModel(ctx: AppContext, channel: ChannelRow, model: string): Promise<ModelReport> {
  const checks: CheckResult[] = [];
  for (const probe of [basic, errorProbe, image, jsonSchema, tools]) checks.push(await probe(ctx, channel, model));
  return { model, checks };
}
