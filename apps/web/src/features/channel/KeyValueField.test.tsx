import { describe, expect, it } from 'vitest';
import { fromRows, toRows } from './KeyValueField';

describe('key/value rows', () => {
  it('reads flat string objects only and writes rows back without keyless ones', () => {
    expect(toRows('')).toEqual([]);
    expect(toRows('{"a":"b","c":"d"}')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(toRows('{"a":1}')).toBeNull();
    expect(toRows('[1]')).toBeNull();
    expect(toRows('{bad')).toBeNull();
    expect(fromRows([[' a ', ' b '], ['', 'x']])).toBe('{\n  "a": "b"\n}');
    expect(fromRows([['', '']])).toBe('');
  });
});
