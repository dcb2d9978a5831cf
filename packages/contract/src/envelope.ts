import { z } from 'zod';
import { text } from './format/text.js';

/** Every /api answer: `{success, message, data}`; data only where a route has some. */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
}

/** Paginated list answer carried in `data`. */
export interface Page<T> {
  data: T[];
  page: number;
  size: number;
  total_count: number;
}

export const MAX_PAGE_SIZE = 100;

/** Query shared by every paginated list: 1-based page, size ≤ 100, order like `-created_time,id`. */
export const PageQuery = z.object({
  page: z.coerce.number().int().catch(1).transform((p) => (p < 1 ? 1 : p)),
  size: z.coerce
    .number()
    .int()
    .catch(10)
    .transform((s) => (s < 1 ? 10 : s))
    .refine((s) => s <= MAX_PAGE_SIZE, { message: `size 参数不能超过 ${MAX_PAGE_SIZE}` }),
  order: text().max(200).optional().default(''),
  keyword: text().max(200).optional().default(''),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** Positive integer id from a path parameter. */
export const IdParam = z.object({ id: z.coerce.number().int().positive() });
