import { z } from 'zod';

/** A six-digit authenticator code, or a recovery code (`xxxxx-xxxxx`). */
export const TwoFactorCodeBody = z.object({
  code: z.string({ error: '请输入验证码' }).trim().min(6, '请输入验证码').max(16, '验证码错误'),
});

export interface TwoFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
}

export interface TwoFactorSetup {
  secret: string;
  /** otpauth://totp/… for the QR code. */
  uri: string;
}
