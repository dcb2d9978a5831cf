/** Who makes a model, from the prefix before `/` or else from well-known name starts. */
const KNOWN: [RegExp, string][] = [
  [/^(gpt-|chatgpt-|o\d|dall-e|whisper|tts-|text-embedding|omni-moderation|davinci|babbage)/, 'OpenAI'],
  [/^claude/, 'Anthropic'],
  [/^(gemini|gemma|imagen|veo)/, 'Google'],
  [/^(deepseek)/, 'DeepSeek'],
  [/^(qwen|qwq)/, 'Qwen'],
  [/^(glm|chatglm|cogview)/, 'Zhipu'],
  [/^(llama|meta-llama)/, 'Meta'],
  [/^(mistral|mixtral|codestral|pixtral|ministral)/, 'Mistral'],
  [/^(grok)/, 'xAI'],
  [/^(moonshot|kimi)/, 'Moonshot'],
];

export function providerOf(model: string): string {
  const slash = model.indexOf('/');
  if (slash > 0) return model.slice(0, slash);
  const lower = model.toLowerCase();
  return KNOWN.find(([re]) => re.test(lower))?.[1] ?? 'Other';
}

/** Models grouped by maker, groups and models sorted by name, "Other" last. */
export function groupByProvider(models: string[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const m of models) {
    const p = providerOf(m);
    groups.set(p, [...(groups.get(p) ?? []), m]);
  }
  return [...groups.entries()].map(([p, list]) => [p, list.sort()] as [string, string[]]).sort(([a], [b]) => (a === 'Other' ? 1 : b === 'Other' ? -1 : a.localeCompare(b)));
}
