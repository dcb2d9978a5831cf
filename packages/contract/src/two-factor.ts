import { z } from 'zod';
import { text } from './format/text.js';

/** A six-digit authenticator code, or a recovery code (`xxxxx-xxxxx`). */
export const TwoFactorCodeBody = z.object({
  code: text({ error: '请输入验证码' }).trim().min(6, '请输入验证码').max(16, '验证码错误'),
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

/**
 * Step-up: revealing secrets (a channel's full key) asks an administrator who has two-factor or a
 * passkey to confirm again; a confirmation holds for STEP_UP_SECONDS in that session.
 */
export const STEP_UP_REQUIRED = 'step_up_required';
export const STEP_UP_SECONDS = 300;

/** The factors a refused request can be confirmed with (`data` of the 403 `step_up_required` answer). */
export interface StepUpFactors {
  two_factor: boolean;
  passkey: boolean;
}

/** POST /api/user/step_up: an authenticator or recovery code, or a passkey assertion for /api/user/step_up/passkey's options. */
export const StepUpBody = z
  .object({
    code: text().trim().max(16, '验证码错误').optional(),
    passkey: z.record(text(), z.unknown()).optional(),
  })
  .refine((b) => Boolean(b.code) !== Boolean(b.passkey), { message: '请输入验证码或使用通行密钥' });
