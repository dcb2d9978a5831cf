import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '../../../db/repos/channels.js';
import { HubError } from '../../../common/errors.js';
import { routeTo } from './attempt.js';

const row = (fields: Partial<ChannelRow> = {}) =>
  ({ id: 3, type: 1, key: 'sk-a\nsk-b', base_url: 'http://up.example/', other: '', model_mapping: null, model_headers: null, plugin: null, ...fields }) as ChannelRow;

describe('routeTo', () => {
  it('maps the model (a + keeps billing on the requested name), applies headers and takes the first key', () => {
    const r = row({ model_mapping: '{"a":"b","c":"+d"}', model_headers: '{"x-team":"blue"}' });
    expect(routeTo(r, 'a')).toMatchObject({ upstreamModel: 'b', billedModel: 'b', target: { key: 'sk-a', baseUrl: 'http://up.example', headers: { 'x-team': 'blue' } } });
    expect(routeTo(r, 'c')).toMatchObject({ upstreamModel: 'd', billedModel: 'c' });
    expect(routeTo(r, 'z')).toMatchObject({ upstreamModel: 'z', billedModel: 'z' });
  });

  it('parses a row’s settings once, and again when the row’s text changes', () => {
    const r = row({ model_headers: '{"x-team":"blue"}' });
    const first = routeTo(r, 'm').target.headers;
    expect(routeTo(r, 'm').target.headers).toBe(first);
    r.model_headers = '{"x-team":"red"}';
    expect(routeTo(r, 'm').target.headers).toEqual({ 'x-team': 'red' });
  });

  it('refuses a channel whose mapping or headers are not a JSON object, on every attempt, as a retryable 503', () => {
    for (const fields of [{ model_mapping: '{oops' }, { model_headers: '["a"]' }]) {
      const r = row(fields);
      for (let i = 0; i < 2; i++) {
        const error = (() => {
          try {
            routeTo(r, 'm');
          } catch (e) {
            return e;
          }
        })() as HubError;
        expect(error).toBeInstanceOf(HubError);
        expect(error).toMatchObject({ status: 503, code: 'channel_misconfigured', retryable: true });
      }
    }
  });
});
