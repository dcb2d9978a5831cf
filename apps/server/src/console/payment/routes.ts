import type { FastifyInstance } from 'fastify';
import {
  CreateOrderBody,
  IdParam,
  OrderListQuery,
  OrderStatusQuery,
  PageQuery,
  PaymentBody,
  PaymentListQuery,
  ROLE,
  UpdatePaymentBody,
} from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { listEnabledPayments, PAYMENT_ORDER_COLUMNS, paymentListQuery } from '../../db/repos/payments.js';
import { ORDER_ORDER_COLUMNS, orderListQuery } from '../../db/repos/orders.js';
import { toOrderJson, toPaymentJson, toPublicGateway } from './json.js';
import * as service from './service.js';

export function registerPaymentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = requireRole(ctx, ROLE.common);
  const admin = requireRole(ctx, ROLE.admin);

  app.get('/payment/', { preHandler: admin }, async (req) => {
    const q = parse(PageQuery, req.query);
    return ok(await paginate(paymentListQuery(ctx.db, parse(PaymentListQuery, req.query)), q, PAYMENT_ORDER_COLUMNS, toPaymentJson));
  });
  app.get('/payment/order', { preHandler: admin }, async (req) => {
    const q = parse(PageQuery, req.query);
    return ok(await paginate(orderListQuery(ctx.db, parse(OrderListQuery, req.query)), q, ORDER_ORDER_COLUMNS, toOrderJson));
  });
  app.get('/payment/:id', { preHandler: admin }, async (req) => ok(await service.getPayment(ctx, parse(IdParam, req.params).id)));
  app.post('/payment/', { preHandler: admin }, async (req, reply) => {
    const created = await service.createPayment(ctx, parse(PaymentBody, req.body));
    reply.code(201);
    return ok(created, 'Payment added successfully');
  });
  app.put('/payment/', { preHandler: admin }, async (req) => ok(await service.updatePaymentById(ctx, parse(UpdatePaymentBody, req.body))));
  app.delete('/payment/:id', { preHandler: admin }, async (req) => {
    await service.removePayment(ctx, parse(IdParam, req.params).id);
    return ok();
  });

  app.get('/user/payment', { preHandler: user }, async () => ok((await listEnabledPayments(ctx.db)).map(toPublicGateway)));
  app.post('/user/order', { preHandler: user }, async (req) => {
    const body = parse(CreateOrderBody, req.body);
    const { message, data } = await service.createOrder(ctx, req.user!, body.uuid, body.amount);
    return ok(data, message);
  });
  app.get('/user/order/status', { preHandler: user }, async (req) => {
    const order = await service.orderStatus(ctx, req.user!.id, parse(OrderStatusQuery, req.query).trade_no);
    // `success` is true only once the order is paid; the screen polls until then.
    return { success: order.status === 'success', message: order.status === 'success' ? '' : order.status, data: { status: order.status } };
  });
}
