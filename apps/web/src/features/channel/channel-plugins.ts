/** Plugin blocks per channel type (api.md §1.23): plugin key → parameters and how each is edited. */
export type PluginParam = { name: string; kind: 'bool' | 'text' | 'json' } | { name: string; kind: 'select'; options: string[] };
export interface PluginBlock {
  key: string;
  params: PluginParam[];
}

const enable: PluginParam[] = [{ name: 'enable', kind: 'bool' }];
const VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'].map((name) => ({ name, kind: 'text' as const }));
/** Custom channels: relay mode number → path ('' default, `disable` off). */
const CUSTOM_MODES = ['1', '2', '3', '4', '5', '6', '7', '9', '10', '11', '16'].map((name) => ({ name, kind: 'text' as const }));

export const CHANNEL_PLUGINS: Record<number, PluginBlock[]> = {
  8: [{ key: 'customize', params: CUSTOM_MODES }],
  // Anthropic: what Message Batches bill at (× the model's price; empty = 0.5, Anthropic's batch discount).
  14: [{ key: 'batch', params: [{ name: 'price_ratio', kind: 'text' }] }],
  15: [{ key: 'use_openai_api', params: enable }],
  16: [
    { key: 'retrieval', params: [{ name: 'knowledge_id', kind: 'text' }, { name: 'prompt_template', kind: 'text' }] },
    { key: 'web_search', params: enable },
    { key: 'web_browser', params: enable },
    { key: 'drawing_tool', params: enable },
    { key: 'code_interpreter', params: [{ name: 'sandbox', kind: 'select', options: ['auto', 'none'] }] },
  ],
  17: [
    { key: 'web_search', params: enable },
    { key: 'use_openai_api', params: enable },
  ],
  20: [{ key: 'other', params: [{ name: 'provider', kind: 'json' }] }],
  24: [{ key: 'voice', params: VOICES }],
  25: [
    { key: 'code_execution', params: enable },
    { key: 'use_openai_api', params: enable },
  ],
  27: [{ key: 'voice', params: VOICES }],
  39: [{ key: 'headers', params: [{ name: 'CF-Access-Client-Id', kind: 'text' }, { name: 'CF-Access-Client-Secret', kind: 'text' }] }],
};

export type PluginValues = Record<string, Record<string, unknown>>;

/** Only the current type's blocks, without empty texts or false switches (null when nothing is left). */
export function cleanPlugins(type: number, values: PluginValues): PluginValues | null {
  const out: PluginValues = {};
  for (const block of CHANNEL_PLUGINS[type] ?? []) {
    const kept: Record<string, unknown> = {};
    for (const p of block.params) {
      const v = values[block.key]?.[p.name];
      if (p.kind === 'bool' ? v === true : typeof v === 'string' && v.trim() !== '') kept[p.name] = p.kind === 'bool' ? true : (v as string).trim();
    }
    if (Object.keys(kept).length) out[block.key] = kept;
  }
  return Object.keys(out).length ? out : null;
}
