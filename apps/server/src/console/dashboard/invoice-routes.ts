import type { FastifyInstance } from 'fastify';
import { InvoiceDetailQuery, InvoiceMonthParams, PageQuery, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { generateInvoices, userInvoices, userInvoiceDetail } from './invoice-service.js';

const SUBMITTED = '账单任务提交成功，后台将自动执行指定月份的账单生成任务';

/** Monthly bills (api.md §26) and their generation by root (§27). */
export function registerInvoiceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = { preHandler: requireRole(ctx, ROLE.common) };
  const root = { preHandler: requireRole(ctx, ROLE.root) };

  app.get('/user/invoice', user, async (req) => ok(await userInvoices(ctx, req.user!.id, parse(PageQuery, req.query))));
  app.get('/user/invoice/detail', user, async (req) => {
    return ok(await userInvoiceDetail(ctx, req.user!.id, parse(InvoiceDetailQuery, req.query).date));
  });
  app.post('/option/invoice/gen/:time', root, async (req) => {
    await generateInvoices(ctx, parse(InvoiceMonthParams, req.params).time, false);
    return ok(undefined, SUBMITTED);
  });
  app.post('/option/invoice/update/:time', root, async (req) => {
    await generateInvoices(ctx, parse(InvoiceMonthParams, req.params).time, true);
    return ok(undefined, SUBMITTED);
  });
}
