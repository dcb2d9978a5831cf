import { PASSWORD_MIN, UpdateSelfBody } from '@one-hub/contract';

export interface ProfileForm {
  display_name: string;
  password: string;
  password2: string;
}

/**
 * The first problem with the personal-info form as an i18n key (or a server-side schema message),
 * or null when it can be sent: password empty or long enough, confirmation equal (console-screens §3.10).
 */
export function profileFormError(form: ProfileForm): { key: string; message?: string } | null {
  if (form.password && form.password.length < PASSWORD_MIN) return { key: 'passwordTooShort' };
  if (form.password !== form.password2) return { key: 'passwordMismatch' };
  const parsed = UpdateSelfBody.safeParse({ display_name: form.display_name.trim(), password: form.password });
  if (!parsed.success) return { key: 'invalid', message: parsed.error.issues[0]?.message };
  return null;
}
