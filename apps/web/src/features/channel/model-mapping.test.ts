import { describe, expect, it } from 'vitest';
import { DEFAULT_MAPPING_OPTIONS as D, aliasOf, applyMapping, readMapping } from './model-mapping';

describe('model mapping generator', () => {
  it('derives aliases: last path segment, prefix and suffix removal, lower case', () => {
    expect(aliasOf('meta-llama/Llama-3-70B-Instruct', { ...D, lastSegment: true, removeSuffix: '-Instruct', lowercase: true })).toBe('llama-3-70b');
    expect(aliasOf('azure-gpt-4o', { ...D, removePrefix: 'azure-' })).toBe('gpt-4o');
    expect(aliasOf('x', { ...D, removePrefix: 'x' })).toBe('x');
  });

  it('maps only renamed models (or all with + billing), skips known aliases, appends or overwrites', () => {
    const existing = { 'gpt-4o': 'old' };
    const opts = { ...D, lastSegment: true };
    expect(applyMapping(['openai/gpt-4o', 'openai/o3', 'plain'], opts, existing)).toEqual({ mapping: { 'gpt-4o': 'old', o3: 'openai/o3' }, names: ['gpt-4o', 'o3', 'plain'] });
    expect(applyMapping(['openai/gpt-4o', 'plain'], { ...opts, skipMapped: false, overwrite: true, plus: true }, existing).mapping).toEqual({ 'gpt-4o': '+openai/gpt-4o', plain: '+plain' });
    expect(readMapping('[1]')).toEqual({});
    expect(readMapping('{bad')).toEqual({});
    expect(readMapping('{"a":"b"}')).toEqual({ a: 'b' });
  });
});

import { groupByProvider, providerOf } from './provider-groups';

describe('provider groups', () => {
  it('groups by the prefix before / or by well-known names, Other last', () => {
    expect(providerOf('meta-llama/Llama-3-8B')).toBe('meta-llama');
    expect(providerOf('o3-mini')).toBe('OpenAI');
    expect(providerOf('Claude-3-opus')).toBe('Anthropic');
    expect(providerOf('mystery')).toBe('Other');
    expect(groupByProvider(['zeta', 'gpt-4o', 'claude-3', 'dall-e-3', 'acme/x'])).toEqual([
      ['acme', ['acme/x']],
      ['Anthropic', ['claude-3']],
      ['OpenAI', ['dall-e-3', 'gpt-4o']],
      ['Other', ['zeta']],
    ]);
  });
});
