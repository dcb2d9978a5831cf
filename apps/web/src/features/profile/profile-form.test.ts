import { describe, expect, it } from 'vitest';
import { profileFormError } from './profile-form';

describe('profile form', () => {
  it('accepts a new display name without a password change', () => {
    expect(profileFormError({ display_name: '  Ann ', password: '', password2: '' })).toBeNull();
  });
  it('wants a long enough password typed twice', () => {
    expect(profileFormError({ display_name: '', password: 'short', password2: 'short' })).toEqual({ key: 'passwordTooShort' });
    expect(profileFormError({ display_name: '', password: 'long-enough-1', password2: 'long-enough-2' })).toEqual({ key: 'passwordMismatch' });
    expect(profileFormError({ display_name: '', password: 'long-enough-1', password2: 'long-enough-1' })).toBeNull();
  });
  it('uses the shared schema for the display name length', () => {
    expect(profileFormError({ display_name: 'x'.repeat(21), password: '', password2: '' })?.key).toBe('invalid');
  });
});
