import { describe, expect, it } from 'vitest';
import type { AvailableModel, ModelInfo } from '@one-hub/contract';
import { allTags, buildCatalog, filterCatalog, groupPrice, initialGroup, NO_CATALOG_FILTERS } from './catalog';

const models: Record<string, AvailableModel> = {
  'gpt-4o': { owned_by: 'OpenAI', groups: ['default', 'vip'], price: { model: 'gpt-4o', type: 'tokens', channel_type: 1, input: 1.25, output: 5, locked: false } },
  'claude-3': { owned_by: 'Anthropic', groups: ['vip'], price: { model: 'claude-3', type: 'tokens', channel_type: 14, input: 1.5, output: 7.5, locked: false } },
  whisper: { owned_by: 'OpenAI', groups: ['default'], price: { model: 'whisper', type: 'times', channel_type: 1, input: 0, output: 0, locked: false } },
};
const info = (model: string, o: Partial<ModelInfo>): ModelInfo => ({ id: 1, model, name: model, description: '', context_length: 0, max_tokens: 0, input_modalities: '[]', output_modalities: '[]', tags: '[]', support_url: '[]', created_at: 0, updated_at: 0, ...o });

describe('available models catalogue', () => {
  const rows = buildCatalog(models, [info('gpt-4o', { name: 'GPT-4o', description: 'omni model', input_modalities: '["text","image"]', tags: '["vision","fast"]', context_length: 128000 }), info('whisper', { output_modalities: 'broken json' })]);

  it('joins model info, sorted by owner then id, tolerating broken JSON lists', () => {
    expect(rows.map((r) => r.id)).toEqual(['claude-3', 'gpt-4o', 'whisper']);
    expect(rows[1]).toMatchObject({ name: 'GPT-4o', inputModalities: ['text', 'image'], tags: ['vision', 'fast'], contextLength: 128000 });
    expect(rows[2].outputModalities).toEqual([]);
    expect(allTags(rows)).toEqual(['fast', 'vision']);
  });

  it('filters by search over description, owner, modality, tag and group access', () => {
    const ids = (f: Partial<typeof NO_CATALOG_FILTERS>, group = 'default') => filterCatalog(rows, { ...NO_CATALOG_FILTERS, ...f }, group).map((r) => r.id);
    expect(ids({ search: 'OMNI' })).toEqual(['gpt-4o']);
    expect(ids({ owner: 'OpenAI' })).toEqual(['gpt-4o', 'whisper']);
    expect(ids({ modality: 'image' })).toEqual(['gpt-4o']);
    expect(ids({ tag: 'fast' })).toEqual(['gpt-4o']);
    expect(ids({ onlyGroup: true })).toEqual(['gpt-4o', 'whisper']);
    expect(ids({ onlyGroup: true }, 'vip')).toEqual(['claude-3', 'gpt-4o']);
  });

  it('prices under a group ratio per 1K/1M with 6 significant digits, free as null', () => {
    expect(groupPrice(1.25, 1, 'K', 'tokens')).toBe(0.0025);
    expect(groupPrice(1.25, 2, 'M', 'tokens')).toBe(5);
    expect(groupPrice(1 / 3, 1, 'M', 'tokens')).toBe(0.666667);
    expect(groupPrice(10, 1, 'M', 'times')).toBe(0.02);
    expect(groupPrice(0, 1, 'K', 'tokens')).toBeNull();
    expect(groupPrice(5, 0, 'K', 'tokens')).toBeNull();
  });

  it("preselects the signed-in user's own group, so a VIP sees its ×0.8 prices", () => {
    const groups = [
      { id: 1, symbol: 'default', name: 'Default', ratio: 1, public: true, api_rate: 0 },
      { id: 2, symbol: 'vip', name: 'VIP', ratio: 0.8, public: false, api_rate: 0 },
    ] as never[];
    expect(initialGroup(groups, 'vip')).toBe('vip');
    expect(initialGroup(groups, undefined)).toBe('default');
    expect(initialGroup(groups, 'gone')).toBe('default');
    expect(initialGroup([], 'vip')).toBe('');
    expect(groupPrice(1.25, 0.8, 'K', 'tokens')).toBe(0.002);
  });
});
