import { z } from 'zod';

/**
 * A loose object whose `type` picks a stricter shape; unknown types pass with only the tag
 * checked, so new block kinds keep flowing through. Issues keep their path inside the object.
 * `untagged` names the shape of an object without the tag (Responses message items).
 */
export function tagged(variants: Record<string, z.ZodType>, untagged?: string) {
  const tag = untagged ? z.string().optional() : z.string();
  return z.looseObject({ type: tag }).superRefine((value, ctx) => {
    const schema = variants[value.type ?? untagged ?? ''];
    if (!schema) return;
    const result = schema.safeParse(value);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as PropertyKey[] });
  });
}
