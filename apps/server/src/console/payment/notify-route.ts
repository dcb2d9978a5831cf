import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { findEnabledPaymentByUuid } from '../../db/repos/payments.js';
import { completeOrder } from './complete-order.js';
import { payProviderFor } from './providers.js';
import { notifyAdmins } from '../../notify/index.js';

/**
 * ANY /api/payment/notify/:uuid (api.md §23.4), public. Bodies stay raw Buffers in this scope so a
 * provider verifies its signature over the exact bytes it was sent (pitfalls: payment callbacks).
 */
export async function registerPaymentNotifyRoute(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    scope.all('/payment/notify/:uuid', async (req, reply) => {
      const { uuid } = req.params as { uuid: string };
      const gateway = /^[0-9a-f]{32}$/.test(uuid) ? await findEnabledPaymentByUuid(ctx.db, uuid) : undefined;
      // §23.4: an unknown or disabled gateway is answered 200 with the envelope, not an error status.
      if (!gateway) return reply.code(200).send({ success: false, message: 'payment not found' });
      const provider = payProviderFor(gateway.type);
      if (!provider?.handleNotify) throw apiError(501, 'payment_provider_missing', { type: gateway.type });
      const { notice, ack } = await provider.handleNotify(gateway, req);
      if (notice) {
        const result = await completeOrder(ctx, { ...notice, gatewayId: gateway.id, ip: req.ip });
        if (!['credited', 'credited_late', 'already_done'].includes(result)) {
          ctx.log.warn({ gateway: gateway.id, tradeNo: notice.tradeNo, result }, 'payment notice not applied');
          notifyAdmins(ctx, { event: 'payment_notify_failed', title: `支付回调未入账 (payment notice not applied)`, text: `gateway #${gateway.id}, order ${notice.tradeNo}: ${result}` });
        }
      }
      if (ack.contentType) reply.type(ack.contentType);
      return reply.code(ack.status).send(ack.body);
    });
  });
}
