import type { Converted } from '../shared/errors.js';
import { randomIds, type IdSource } from '../shared/ids.js';
import { toDataUrl, warnUnknownKeys } from '../shared/json.js';
import type { HubContentPart, HubMessage, HubRequest, HubToolCall, ReasoningEffort } from '../openai/types.js';
import { effortFromBudget } from '../openai/reasoning.js';
import type { GeminiGenerationConfig, GeminiPart, GeminiRequest } from './types.js';

const HANDLED = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'safetySettings']);

/** Assigns ids to function calls and finds them again for their responses (by id, else by name in order). */
function callTracker(ids: IdSource) {
  const pending: Array<{ id: string; name: string; given?: string }> = [];
  return {
    call(name: string, given?: string): string {
      const id = given ?? ids.next('call');
      pending.push({ id, name, given });
      return id;
    },
    response(name: string, given?: string): string {
      const i = pending.findIndex((p) => (given ? p.given === given || p.id === given : p.name === name));
      if (i < 0) return given ?? ids.next('call');
      return pending.splice(i, 1)[0].id;
    },
  };
}

function partToContent(p: GeminiPart, warnings: string[], at: string): HubContentPart | null {
  if (typeof p.text === 'string') return { type: 'text', text: p.text };
  if (p.inlineData) {
    const url = toDataUrl(p.inlineData.mimeType, p.inlineData.data);
    const mime = p.inlineData.mimeType;
    if (mime.startsWith('image/')) return { type: 'image_url', image_url: { url } };
    if (mime.startsWith('audio/')) return { type: 'input_audio', input_audio: { data: p.inlineData.data, format: mime.slice(6).replace('mpeg', 'mp3') } };
    return { type: 'file', file: { file_data: url } };
  }
  if (p.fileData) {
    if (!p.fileData.mimeType || p.fileData.mimeType.startsWith('image/')) return { type: 'image_url', image_url: { url: p.fileData.fileUri } };
    warnings.push(`${at}: fileData of type ${p.fileData.mimeType} dropped`);
    return null;
  }
  warnings.push(`${at}: dropped part with keys ${Object.keys(p).join(',')}`);
  return null;
}

function configToHub(g: GeminiGenerationConfig, out: HubRequest, warnings: string[]): void {
  if (g.temperature !== undefined) out.temperature = g.temperature;
  if (g.topP !== undefined) out.top_p = g.topP;
  if (g.topK !== undefined) out.top_k = g.topK;
  if (g.maxOutputTokens !== undefined) out.max_tokens = g.maxOutputTokens;
  if (g.stopSequences?.length) out.stop = g.stopSequences;
  if (g.candidateCount !== undefined) out.n = g.candidateCount;
  if (g.seed !== undefined) out.seed = g.seed;
  if (g.presencePenalty !== undefined) out.presence_penalty = g.presencePenalty;
  if (g.frequencyPenalty !== undefined) out.frequency_penalty = g.frequencyPenalty;
  if (g.responseMimeType === 'application/json') {
    const schema = g.responseJsonSchema ?? g.responseSchema;
    out.response_format = schema ? { type: 'json_schema', json_schema: { name: 'response', schema } } : { type: 'json_object' };
  } else if (g.responseMimeType && g.responseMimeType !== 'text/plain') warnings.push(`generationConfig.responseMimeType ${g.responseMimeType} dropped`);
  const t = g.thinkingConfig;
  if (t?.thinkingLevel) out.reasoning_effort = t.thinkingLevel.toLowerCase() as ReasoningEffort;
  else if (t?.thinkingBudget !== undefined && t.thinkingBudget > 0) {
    out.reasoning = { max_tokens: t.thinkingBudget };
    out.reasoning_effort = effortFromBudget(t.thinkingBudget);
  } else if (t?.thinkingBudget === 0) out.reasoning_effort = 'none';
  const known = new Set(['temperature', 'topP', 'topK', 'maxOutputTokens', 'stopSequences', 'candidateCount', 'seed', 'presencePenalty', 'frequencyPenalty', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'thinkingConfig']);
  warnUnknownKeys(g, known, 'generationConfig', warnings);
}

export interface GeminiToHubOptions {
  /** The model from the URL path (`/models/{model}:generateContent`). */
  model: string;
  stream?: boolean;
  ids?: IdSource;
}

/** Gemini generateContent request → hub (OpenAI chat) request. */
export function geminiRequestToHub(req: GeminiRequest, opts: GeminiToHubOptions): Converted<HubRequest> {
  const warnings: string[] = [];
  warnUnknownKeys(req, HANDLED, 'request', warnings);
  const calls = callTracker(opts.ids ?? randomIds);
  const messages: HubMessage[] = [];
  const sys = (req.systemInstruction?.parts ?? []).map((p) => p.text ?? '').filter(Boolean).join('\n');
  if (sys) messages.push({ role: 'system', content: sys });

  req.contents.forEach((c, i) => {
    const at = `contents.${i}`;
    if (c.role === 'model') {
      const msg: HubMessage = { role: 'assistant', content: null };
      const text: string[] = [];
      const reasoning: string[] = [];
      const toolCalls: HubToolCall[] = [];
      for (const p of c.parts) {
        if (p.functionCall) {
          const tc: HubToolCall = { id: calls.call(p.functionCall.name, p.functionCall.id), type: 'function', function: { name: p.functionCall.name, arguments: JSON.stringify(p.functionCall.args ?? {}) } };
          if (p.thoughtSignature) tc.extra_content = { google: { thought_signature: p.thoughtSignature } };
          toolCalls.push(tc);
          continue;
        }
        if (p.thoughtSignature) msg.extra_content = { google: { thought_signature: p.thoughtSignature } };
        if (typeof p.text === 'string') (p.thought ? reasoning : text).push(p.text);
        else if (!p.thoughtSignature) warnings.push(`${at}: dropped model part with keys ${Object.keys(p).join(',')}`);
      }
      if (text.length) msg.content = text.join('');
      if (reasoning.length) msg.reasoning_content = reasoning.join('');
      if (toolCalls.length) msg.tool_calls = toolCalls;
      messages.push(msg);
      return;
    }
    const parts: HubContentPart[] = [];
    c.parts.forEach((p, j) => {
      if (p.functionResponse) {
        const r = p.functionResponse;
        messages.push({ role: 'tool', tool_call_id: calls.response(r.name, r.id), content: JSON.stringify(r.response ?? {}) });
        return;
      }
      const hp = partToContent(p, warnings, `${at}.parts.${j}`);
      if (hp) parts.push(hp);
    });
    if (parts.length) messages.push({ role: 'user', content: parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('') : parts });
  });

  const out: HubRequest = { model: opts.model, messages };
  if (opts.stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  if (req.generationConfig) configToHub(req.generationConfig, out, warnings);
  for (const t of req.tools ?? []) {
    for (const f of t.functionDeclarations ?? []) {
      (out.tools ??= []).push({ type: 'function', function: { name: f.name, ...(f.description ? { description: f.description } : {}), parameters: f.parametersJsonSchema ?? f.parameters ?? { type: 'object', properties: {} } } });
    }
    for (const k of Object.keys(t)) if (k !== 'functionDeclarations') warnings.push(`tools: built-in tool "${k}" dropped`);
  }
  const fc = req.toolConfig?.functionCallingConfig;
  if (fc?.mode === 'NONE') out.tool_choice = 'none';
  else if (fc?.mode === 'AUTO') out.tool_choice = 'auto';
  else if (fc?.mode === 'ANY' || fc?.mode === 'VALIDATED') {
    const only = fc.allowedFunctionNames;
    out.tool_choice = only?.length === 1 ? { type: 'function', function: { name: only[0] } } : 'required';
    if (only && only.length > 1) warnings.push('toolConfig.allowedFunctionNames with several names approximated by required');
  }
  if (req.safetySettings?.length) warnings.push('safetySettings dropped');
  return { value: out, warnings };
}
