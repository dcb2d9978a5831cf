import { describe, expect, it } from 'vitest';
import { ipAllowed } from './ip-match.js';

describe('IP whitelist matching', () => {
  it('matches addresses and CIDR ranges of both families, unwrapping IPv4-mapped IPv6', () => {
    expect(ipAllowed('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(ipAllowed('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(ipAllowed('2001:db8::5', ['2001:db8::/32'])).toBe(true);
    expect(ipAllowed('11.0.0.1', ['10.0.0.0/8'])).toBe(false);
  });

  it('skips entries it cannot read instead of throwing, and still honours the readable ones', () => {
    const stored = ['1.2.3.4/999', '300.1.1.1', 'garbage', '1.2.3.4/', '1.2.3.4/x', '::1/129', '1.2.3.4/8/8', '', '127.0.0.1/32'];
    expect(() => ipAllowed('127.0.0.1', stored)).not.toThrow();
    expect(ipAllowed('127.0.0.1', stored)).toBe(true);
    expect(ipAllowed('1.2.3.4', stored)).toBe(false);
    expect(ipAllowed('not-an-ip', stored)).toBe(false);
  });
});
