import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchStep, otpauthUri, STEP_SECONDS } from './totp.js';

describe('TOTP', () => {
  const rfcKey = Buffer.from('12345678901234567890');

  it('matches the RFC 6238 SHA-1 vectors (8 digits) and RFC 4226 HOTP values', () => {
    for (const [t, expected] of [[59, '94287082'], [1111111109, '07081804'], [1234567890, '89005924'], [2000000000, '69279037']] as const) {
      expect(hotp(rfcKey, Math.floor(t / STEP_SECONDS), 8)).toBe(expected);
    }
    expect([0, 1, 9].map((c) => hotp(rfcKey, c))).toEqual(['755224', '287082', '520489']);
  });

  it('round-trips base32 and accepts only the steps next to now', () => {
    const secret = base32Encode(rfcKey);
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(secret)).toEqual(rfcKey);
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 1000 / STEP_SECONDS);
    expect(matchStep(secret, hotp(rfcKey, step - 1), now)).toBe(step - 1);
    expect(matchStep(secret, hotp(rfcKey, step + 1), now)).toBe(step + 1);
    expect(matchStep(secret, hotp(rfcKey, step - 2), now)).toBeNull();
    expect(matchStep(secret, 'abcdef', now)).toBeNull();
  });

  it('builds the otpauth URI authenticator apps read', () => {
    expect(otpauthUri('One Hub', 'alice', 'ABC')).toBe('otpauth://totp/One%20Hub%3Aalice?secret=ABC&issuer=One+Hub&algorithm=SHA1&digits=6&period=30');
  });
});
