import { z } from 'zod';

/** Where a user's own low-balance alert goes ('' = off). */
export const QUOTA_ALERT_CHANNELS = ['', 'email', 'telegram'] as const;

/** GET/PUT /api/user/alert: tell me once when my balance falls below `threshold` (quota units). */
export const QuotaAlertBody = z.object({
  threshold: z.coerce.number().int('threshold must be a whole number').min(0, 'threshold must not be negative').max(1e15),
  channel: z.enum(QUOTA_ALERT_CHANNELS, { error: 'channel must be email, telegram or empty' }),
});
export type QuotaAlert = z.infer<typeof QuotaAlertBody>;
