import type { Converted } from '../shared/errors.js';
import { stripSchemaKeys, warnUnknownKeys } from '../shared/json.js';
import type { HubRequest, ReasoningEffort } from '../openai/types.js';
import { messagesToGemini } from './contents-from-hub.js';
import type { GeminiGenerationConfig, GeminiRequest, GeminiSafetySetting, GeminiToolConfig } from './types.js';

export interface HubToGeminiOptions {
  /** Safety settings to send (the caller decides; none by default). */
  safetySettings?: GeminiSafetySetting[];
  /** 'level' (Gemini 3: thinkingLevel) or 'budget' (2.5: thinkingBudget); by model name when absent. */
  thinkingStyle?: 'level' | 'budget';
  /** Signature for unsigned tool-call turns; defaults to Google's documented skip value on Gemini 3. */
  fallbackThoughtSignature?: string;
}

const HANDLED = new Set([
  'model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'n', 'seed',
  'presence_penalty', 'frequency_penalty', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'reasoning_effort', 'reasoning', 'modalities',
]);
/** Keys Gemini's OpenAPI-subset schemas reject. */
export const GEMINI_SCHEMA_DROP = ['$schema', 'additionalProperties', '$id', '$comment', 'strict'] as const;
const EFFORT_BUDGET: Record<ReasoningEffort, number> = { none: 0, minimal: 512, low: 1024, medium: 8192, high: 24576, xhigh: 32768 };
const isGemini3 = (model: string) => /gemini-[3-9]/.test(model);

function cleanSchema(schema: Record<string, unknown> | undefined, where: string, warnings: string[]): Record<string, unknown> | undefined {
  if (!schema) return undefined;
  const removed = new Set<string>();
  const out = stripSchemaKeys(schema, GEMINI_SCHEMA_DROP, removed) as Record<string, unknown>;
  if (removed.size) warnings.push(`${where}: removed ${[...removed].join(', ')} (not accepted by Gemini)`);
  return out;
}

function generationConfig(req: HubRequest, opts: HubToGeminiOptions, warnings: string[]): GeminiGenerationConfig {
  const g: GeminiGenerationConfig = {};
  if (req.temperature != null) g.temperature = req.temperature;
  if (req.top_p != null) g.topP = req.top_p;
  if (req.top_k != null) g.topK = req.top_k;
  const max = req.max_completion_tokens || req.max_tokens;
  if (max) g.maxOutputTokens = max;
  if (req.stop != null) g.stopSequences = Array.isArray(req.stop) ? req.stop : [req.stop];
  if (req.n != null && req.n > 1) g.candidateCount = req.n;
  if (req.seed != null) g.seed = req.seed;
  if (req.presence_penalty != null) g.presencePenalty = req.presence_penalty;
  if (req.frequency_penalty != null) g.frequencyPenalty = req.frequency_penalty;
  const fmt = req.response_format;
  if (fmt?.type === 'json_object') g.responseMimeType = 'application/json';
  if (fmt?.type === 'json_schema') {
    g.responseMimeType = 'application/json';
    const schema = cleanSchema(fmt.json_schema.schema, 'response_format.json_schema', warnings);
    if (schema) g.responseSchema = schema;
  }
  if (Array.isArray(req.modalities)) g.responseModalities = req.modalities.map((m) => String(m).toUpperCase());
  const effort = req.reasoning?.effort ?? req.reasoning_effort;
  const budget = req.reasoning?.max_tokens;
  const style = opts.thinkingStyle ?? (isGemini3(req.model) ? 'level' : 'budget');
  if (budget != null) g.thinkingConfig = { thinkingBudget: budget, includeThoughts: budget > 0 };
  else if (effort) {
    if (style === 'level') g.thinkingConfig = { thinkingLevel: (effort === 'none' || effort === 'minimal' ? 'minimal' : effort === 'xhigh' ? 'high' : effort).toUpperCase(), includeThoughts: effort !== 'none' };
    else g.thinkingConfig = { thinkingBudget: EFFORT_BUDGET[effort] ?? 8192, includeThoughts: effort !== 'none' };
  }
  return g;
}

/** Hub (OpenAI chat) request → Gemini generateContent body (the model and stream flag go in the URL). */
export function hubRequestToGemini(req: HubRequest, opts: HubToGeminiOptions = {}): Converted<GeminiRequest> {
  const warnings: string[] = [];
  warnUnknownKeys(req, HANDLED, 'request', warnings);
  const fallback = opts.fallbackThoughtSignature ?? (isGemini3(req.model) ? 'skip_thought_signature_validator' : undefined);
  const { system, contents } = messagesToGemini(req.messages, { fallbackThoughtSignature: fallback }, warnings);
  const out: GeminiRequest = { contents };
  if (system.length) out.systemInstruction = { parts: system };
  const g = generationConfig(req, opts, warnings);
  if (Object.keys(g).length) out.generationConfig = g;
  if (req.tools?.length) {
    out.tools = [{
      functionDeclarations: req.tools.map((t, i) => {
        const params = cleanSchema(t.function.parameters, `tools.${i}.function.parameters`, warnings);
        const empty = !params || (params.type === 'object' && Object.keys((params.properties as object | undefined) ?? {}).length === 0);
        return { name: t.function.name, ...(t.function.description ? { description: t.function.description } : {}), ...(empty ? {} : { parameters: params }) };
      }),
    }];
  }
  const tc = req.tool_choice;
  let config: GeminiToolConfig | undefined;
  if (tc === 'none') config = { functionCallingConfig: { mode: 'NONE' } };
  else if (tc === 'required') config = { functionCallingConfig: { mode: 'ANY' } };
  else if (tc === 'auto') config = { functionCallingConfig: { mode: 'AUTO' } };
  else if (tc && typeof tc === 'object') config = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [tc.function.name] } };
  if (config) out.toolConfig = config;
  if (req.parallel_tool_calls === false) warnings.push('parallel_tool_calls=false has no Gemini equivalent');
  if (opts.safetySettings?.length) out.safetySettings = opts.safetySettings;
  return { value: out, warnings };
}
