import { count, emptyUsage, inputTokens, outputTokens, type Usage } from '../openai/usage.js';
import { isObject } from '../shared/json.js';
import type { GeminiModalityCount, GeminiUsageMetadata } from './types.js';

const byModality = (list: unknown, ...names: string[]): number =>
  Array.isArray(list) ? list.reduce((n: number, m: GeminiModalityCount) => n + (names.includes(m?.modality) ? count(m.tokenCount) : 0), 0) : 0;

/**
 * Gemini usageMetadata → Usage. cachedContentTokenCount is a subset of
 * promptTokenCount; toolUsePromptTokenCount and thoughtsTokenCount are separate
 * from prompt and candidates. Image/video and audio shares come from the
 * per-modality details (cached shares subtracted so nothing counts twice).
 */
export function usageFromGemini(raw: unknown): Usage | null {
  if (!isObject(raw)) return null;
  const m = raw as GeminiUsageMetadata;
  const prompt = count(m.promptTokenCount) + count(m.toolUsePromptTokenCount);
  const u = emptyUsage();
  u.cacheRead = Math.min(count(m.cachedContentTokenCount), prompt);
  u.audioIn = Math.max(0, byModality(m.promptTokensDetails, 'AUDIO') - byModality(m.cacheTokensDetails, 'AUDIO'));
  u.imageIn = Math.max(0, byModality(m.promptTokensDetails, 'IMAGE', 'VIDEO') - byModality(m.cacheTokensDetails, 'IMAGE', 'VIDEO'));
  u.inputUncached = Math.max(0, prompt - u.cacheRead - u.audioIn - u.imageIn);
  const candidates = count(m.candidatesTokenCount);
  u.audioOut = Math.min(byModality(m.candidatesTokensDetails, 'AUDIO'), candidates);
  u.imageOut = Math.min(byModality(m.candidatesTokensDetails, 'IMAGE'), candidates - u.audioOut);
  u.output = candidates - u.audioOut - u.imageOut;
  u.reasoning = count(m.thoughtsTokenCount);
  return u;
}

export function usageToGemini(u: Usage): GeminiUsageMetadata {
  const prompt = inputTokens(u);
  const candidates = outputTokens(u) - u.reasoning;
  const out: GeminiUsageMetadata = { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates + u.reasoning };
  if (u.cacheRead) out.cachedContentTokenCount = u.cacheRead;
  if (u.reasoning) out.thoughtsTokenCount = u.reasoning;
  const pd: GeminiModalityCount[] = [];
  if (u.audioIn) pd.push({ modality: 'AUDIO', tokenCount: u.audioIn });
  if (u.imageIn) pd.push({ modality: 'IMAGE', tokenCount: u.imageIn });
  if (pd.length) out.promptTokensDetails = [{ modality: 'TEXT', tokenCount: prompt - u.audioIn - u.imageIn }, ...pd];
  const cd: GeminiModalityCount[] = [];
  if (u.audioOut) cd.push({ modality: 'AUDIO', tokenCount: u.audioOut });
  if (u.imageOut) cd.push({ modality: 'IMAGE', tokenCount: u.imageOut });
  if (cd.length) out.candidatesTokensDetails = [{ modality: 'TEXT', tokenCount: candidates - u.audioOut - u.imageOut }, ...cd];
  return out;
}
