import type { AppContext } from '../app-context.js';
import { billLastMonth } from '../console/dashboard/invoice-service.js';
import type { JobDef } from './runner.js';

/** USER_INVOICE_MONTH: bill last month at start-up and daily at 04:00 (a month already billed is skipped). */
export function monthlyBillsJob(ctx: AppContext): JobDef {
  return {
    name: 'monthly_bills',
    schedule: ctx.config.USER_INVOICE_MONTH ? { cron: '0 4 * * *', label: 'daily 04:00' } : undefined,
    atStart: true,
    run: async (c) => {
      await billLastMonth(c);
      return 'last month billed (skipped when it already was)';
    },
  };
}
