import { describe, expect, it } from 'vitest';
import { changeType, channelToForm, formToBody, splitModels, validateChannelForm } from './channel-form';
import { cleanPlugins } from './channel-plugins';
import { formatBalance, groupList, responseColor } from './channel-ui';

describe('channel form', () => {
  it('starts as an OpenAI channel with its models, the default group and test model', () => {
    const f = channelToForm();
    expect(f).toMatchObject({ type: 1, groups: ['default'], test_model: 'gpt-4o', priority: '0', weight: '1' });
    expect(f.models).toContain('gpt-4o-mini');
    expect(validateChannelForm(f, 'create')).toEqual({ name: 'validation.required', key: 'validation.required' });
    expect(validateChannelForm({ ...f, name: 'n' }, 'edit')).toEqual({});
  });

  it('requires a base URL for Azure and Custom, checks wildcards, JSON objects, header values, proxy and numbers', () => {
    const f = { ...channelToForm(), name: 'n', key: 'k' };
    expect(validateChannelForm({ ...f, type: 8 }, 'create')).toEqual({ base_url: 'validation.required' });
    expect(validateChannelForm({ ...f, type: 3, base_url: 'https://x.openai.azure.com' }, 'create')).toEqual({});
    expect(
      validateChannelForm(
        { ...f, models: ['*gpt'], model_mapping: '[1]', model_headers: '{"a":1}', custom_parameter: '{oops', proxy: 'ftp://p', priority: '-1', weight: '0', groups: [] },
        'create',
      ),
    ).toEqual({
      models: 'validation.wildcard',
      model_mapping: 'errors.jsonObject',
      model_headers: 'errors.stringValues',
      custom_parameter: 'errors.jsonObject',
      proxy: 'errors.proxy',
      priority: 'validation.atLeast',
      weight: 'validation.atLeast',
      groups: 'validation.required',
    });
    // a tag edit has no name but needs its key list
    expect(validateChannelForm({ ...f, name: '', key: '' }, 'tag')).toEqual({ key: 'validation.required' });
  });

  it('builds the body: mapped models added, lists joined, URL slash dropped, Azure version defaulted, blank keys dropped', () => {
    const f = {
      ...channelToForm(),
      type: 3,
      name: ' azure ',
      base_url: 'https://x.openai.azure.com/',
      key: 'k1\n\n k2 ',
      models: ['gpt-4o'],
      groups: ['default', 'vip', 'vip'],
      model_mapping: '{"gpt-4o-latest": "gpt-4o"}',
      model_headers: '{ "X-A": "1" }',
      disabled_stream: ['o1', ' o1 ', ''],
    };
    expect(formToBody(f)).toMatchObject({
      type: 3,
      name: 'azure',
      base_url: 'https://x.openai.azure.com',
      other: '2024-05-01-preview',
      key: 'k1\nk2',
      models: 'gpt-4o,gpt-4o-latest',
      group: 'default,vip',
      model_headers: '{"X-A":"1"}',
      custom_parameter: '',
      disabled_stream: ['o1'],
      priority: 0,
      weight: 1,
    });
    expect(JSON.parse(formToBody(f).model_mapping)).toEqual({ 'gpt-4o-latest': 'gpt-4o' });
  });

  it('reads a stored channel and fills only empty fields on a type change', () => {
    const f = channelToForm({ type: 28, name: 'ds', models: 'deepseek-chat, deepseek-reasoner', group: 'vip,default', model_mapping: '{"a":"b"}', test_model: '', priority: null, weight: null });
    expect(f).toMatchObject({ groups: ['vip', 'default'], models: ['deepseek-chat', 'deepseek-reasoner'], priority: '0', weight: '1' });
    expect(f.model_mapping).toBe('{\n  "a": "b"\n}');
    const moved = changeType(f, 14);
    expect(moved.models).toEqual(['deepseek-chat', 'deepseek-reasoner']);
    expect(moved.test_model).toBe('claude-sonnet-4-5');
    expect(changeType({ ...f, models: [] }, 14).models).toContain('claude-opus-4-1');
    expect(splitModels(['a,b', ' b ', 'c'])).toEqual(['a', 'b', 'c']);
  });

  it('colours response times, shows yuan balances for DeepSeek and SiliconFlow, and sorts groups', () => {
    expect([responseColor(0, false), responseColor(800, true), responseColor(2500, true), responseColor(4000, true), responseColor(9000, true)]).toEqual(['default', 'success', 'primary', 'secondary', 'error']);
    expect(formatBalance(28, 3)).toBe('¥3.00');
    expect(formatBalance(45, 1.234)).toBe('¥1.23');
    expect(formatBalance(1, 5)).toBe('$5.00');
    expect(groupList('vip, default')).toEqual(['default', 'vip']);
    expect(groupList('')).toEqual(['default']);
  });

  it('keeps only the current type\'s plugin values, drops empty ones, and resets them on a type change', () => {
    expect(cleanPlugins(16, { web_search: { enable: true }, web_browser: { enable: false }, retrieval: { knowledge_id: ' k1 ', prompt_template: '' }, voice: { alloy: 'x' } })).toEqual({ web_search: { enable: true }, retrieval: { knowledge_id: 'k1' } });
    expect(cleanPlugins(1, { web_search: { enable: true } })).toBeNull();
    expect(cleanPlugins(14, { batch: { price_ratio: ' 0.25 ' } })).toEqual({ batch: { price_ratio: '0.25' } });
    const f = { ...channelToForm({ type: 25, plugin: { code_execution: { enable: true } } }), name: 'g' };
    expect(formToBody(f).plugin).toEqual({ code_execution: { enable: true } });
    expect(changeType(f, 16).plugin).toEqual({});
  });
});
