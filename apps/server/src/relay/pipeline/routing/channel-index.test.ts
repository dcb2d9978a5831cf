import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '../../../db/repos/channels.js';
import { ChannelIndex } from './channel-index.js';

const row = (id: number, models: string, priority = 0, group = 'default') =>
  ({ id, models, priority, group, weight: 1, only_chat: 0, disabled_stream: null }) as unknown as ChannelRow;

describe('ChannelIndex', () => {
  const index = new ChannelIndex([row(1, 'gpt-4o,gpt-4o-mini', 0), row(2, 'gpt-4o', 10), row(3, 'gpt-*', 0), row(4, 'gpt-4o', 0, 'vip')]);
  const ids = (tiers: ReturnType<ChannelIndex['tiers']>) => tiers.map((t) => t.map((c) => c.row.id).sort());

  it('groups the channels serving a model by priority, highest first, wildcards included', () => {
    expect(ids(index.tiers('default', 'gpt-4o'))).toEqual([[2], [1, 3]]);
    expect(ids(index.tiers('default', 'gpt-3.5'))).toEqual([[3]]);
    expect(ids(index.tiers('vip', 'gpt-4o'))).toEqual([[4]]);
    expect(index.tiers('default', 'claude-3')).toEqual([]);
  });

  it('computes a group and model once, and stays correct when callers name endless models', () => {
    expect(index.tiers('default', 'gpt-4o')).toBe(index.tiers('default', 'gpt-4o'));
    for (let i = 0; i < 10_050; i++) expect(ids(index.tiers('default', `gpt-x${i}`))).toEqual([[3]]);
    expect(ids(index.tiers('default', 'gpt-4o'))).toEqual([[2], [1, 3]]);
  });
});
