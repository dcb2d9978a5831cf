import { z } from 'zod';
import { text } from './format/text.js';

/** One change an administrator made through /api (or a channel key revealed). */
export interface AuditEntry {
  id: number;
  created_at: number;
  actor_id: number;
  actor_name: string;
  actor_role: number;
  ip: string;
  action: string;
  target_kind: string;
  target_id: string;
  /** Changed fields with their masked values; `null` stands for "did not exist". */
  diff: Record<string, { before: unknown; after: unknown }>;
}

export const AUDIT_TARGET_KINDS = ['channel', 'token', 'user', 'user_group', 'price', 'option', 'payment', 'redemption', 'limits', 'log', 'model', 'plan'] as const;

export const AuditListQuery = z.object({
  actor: text().trim().max(64).optional(),
  target_kind: z.enum(AUDIT_TARGET_KINDS).optional(),
  target_id: text().trim().max(255).optional(),
  start_timestamp: z.coerce.number().int().min(0).optional(),
  end_timestamp: z.coerce.number().int().min(0).optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;
