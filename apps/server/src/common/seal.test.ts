import { describe, expect, it } from 'vitest';
import { deriveKey, isSealed, seal, unseal } from './seal.js';

describe('seal', () => {
  const key = deriveKey('session-secret', 'two-factor');

  it('round-trips with a fresh IV each time and hides the text', () => {
    const a = seal(key, 'JBSWY3DPEHPK3PXP');
    const b = seal(key, 'JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(isSealed(a)).toBe(true);
    expect(unseal(key, a)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('reads a plaintext value stored before sealing as it is', () => {
    expect(unseal(key, 'JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses another key or a changed byte', () => {
    const sealed = seal(key, 'secret');
    expect(() => unseal(deriveKey('other-secret', 'two-factor'), sealed)).toThrow();
    expect(() => unseal(deriveKey('session-secret', 'other purpose'), sealed)).toThrow();
    const bytes = Buffer.from(sealed.slice(5), 'base64url');
    bytes[bytes.length - 1] ^= 1;
    expect(() => unseal(key, `enc1:${bytes.toString('base64url')}`)).toThrow();
  });
});
