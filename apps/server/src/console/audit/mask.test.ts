import { describe, expect, it } from 'vitest';
import { maskRecord, maskValue } from './mask.js';
import { diffRows } from './recorder.js';

describe('audit masking', () => {
  it('keeps only the last 4 characters of long secrets and none of short ones', () => {
    expect(maskValue('sk-0123456789abcdefWXYZ')).toBe('****WXYZ');
    expect(maskValue('short')).toBe('****');
    expect(maskValue('')).toBe('');
  });

  it('masks secret fields of rows, of JSON text inside them, and secret options only', () => {
    const channel = maskRecord('channel', { name: 'c', key: 'sk-aaaaaaaaaaaaaaaa1234', model_mapping: '{"a":"b"}', plugin: '{"search":{"api_key":"g-secret-value-000999"}}' })!;
    expect(channel).toMatchObject({ name: 'c', key: '****1234', model_mapping: '{"a":"b"}' });
    expect(channel.plugin).toBe('{"search":{"api_key":"****0999"}}');
    expect(maskRecord('user', { password: '$2b$10$hash', access_token: 'abcdefabcdefabcdefab', quota: 5 })).toEqual({ password: '****', access_token: '****efab', quota: 5 });
    expect(maskRecord('option', { key: 'SMTPToken', value: 'smtp-secret' })).toEqual({ key: 'SMTPToken', value: '****' });
    expect(maskRecord('option', { key: 'SystemName', value: 'Hub' })).toEqual({ key: 'SystemName', value: 'Hub' });
    expect(maskRecord('payment', { config: '{not json' })).toEqual({ config: '****' });
  });

  it('diffs raw values, so a rotated secret with the same last 4 characters still shows as changed', () => {
    const diff = diffRows('channel', { key: 'sk-first-secret-value-1234', weight: 1 }, { key: 'sk-other-secret-value-1234', weight: 1 });
    expect(diff).toEqual({ key: { before: '****1234', after: '****1234' } });
    expect(diffRows('channel', undefined, { name: 'n' })).toEqual({ name: { before: null, after: 'n' } });
  });
});
