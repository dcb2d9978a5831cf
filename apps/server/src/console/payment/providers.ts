import type { FastifyRequest } from 'fastify';
import type { PayRequest } from '@one-hub/contract';
import type { PaymentRow } from '../../db/repos/payments.js';
import type { PaidNotice } from './complete-order.js';
import { epay } from './providers/epay/index.js';

export interface PayOrder {
  tradeNo: string;
  /** Amount to charge in the gateway currency. */
  pay: number;
  amount: number;
  userId: number;
  notifyUrl: string;
  returnUrl: string;
}

export interface NotifyOutcome {
  notice: Omit<PaidNotice, 'gatewayId' | 'ip'> | null;
  ack: { status: number; body: string | Record<string, unknown>; contentType?: string };
}

/** One payment provider (Epay, Alipay, WeChat Pay, Stripe): turns an order into a pay request. */
export interface PayProvider {
  createPayment(gateway: PaymentRow, order: PayOrder): Promise<Pick<PayRequest, 'type' | 'data'>>;
  /**
   * Verifies a callback (`req.body` is the raw Buffer, for signatures over the exact bytes). Answers the
   * payment it proves (or null) and the acknowledgement the gateway expects, which is sent only after
   * the order is applied, so a failure there makes the gateway retry.
   */
  handleNotify?(gateway: PaymentRow, req: FastifyRequest): Promise<NotifyOutcome>;
}

const providers = new Map<string, PayProvider>([['epay', epay]]);

/** Answers a function that takes the provider out again (tests). */
export function registerPayProvider(type: string, provider: PayProvider): () => void {
  const before = providers.get(type);
  providers.set(type, provider);
  return () => {
    if (providers.get(type) !== provider) return;
    if (before) providers.set(type, before);
    else providers.delete(type);
  };
}

export function payProviderFor(type: string): PayProvider | undefined {
  return providers.get(type);
}
