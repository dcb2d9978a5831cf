import { describe, expect, it } from 'vitest';
import { isHttpUrl, isIpOrCidr } from './net.js';

describe('IP whitelist entries', () => {
  it('accepts addresses and CIDR ranges of either family', () => {
    for (const ok of ['1.2.3.4', '10.0.0.0/8', '0.0.0.0/0', '255.255.255.255/32', '::1', '2001:db8::/32', '::ffff:1.2.3.4', 'fe80::1/128']) expect(isIpOrCidr(ok), ok).toBe(true);
  });

  it('refuses bad prefixes, bad octets and garbage', () => {
    for (const bad of ['1.2.3.4/999', '1.2.3.4/33', '300.1.1.1', '1.2.3', '1.2.3.4/', '1.2.3.4/x', '1.2.3.4/8/8', '::1/129', 'abc', '', ':::', '01.2.3.4.5']) expect(isIpOrCidr(bad), bad).toBe(false);
  });
});

describe('http(s) URLs', () => {
  it('accepts http and https with a host only', () => {
    expect(isHttpUrl('https://api.openai.com/v1')).toBe(true);
    expect(isHttpUrl('http://127.0.0.1:8080')).toBe(true);
    for (const bad of ['ftp://x.com', 'javascript:alert(1)', 'file:///etc/passwd', 'api.openai.com', 'http://', 'not a url']) expect(isHttpUrl(bad), bad).toBe(false);
  });
});
