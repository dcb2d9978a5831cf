import type { FastifyRequest } from 'fastify';
import type { PayRequest } from '@one-hub/contract';
import type { Config } from '../../config/env.js';
import type { PaymentRow } from '../../db/repos/payments.js';
import type { PaidNotice } from './complete-order.js';
import { alipay } from './providers/alipay/index.js';
import { epay } from './providers/epay/index.js';
import { stripe } from './providers/stripe/index.js';
import { wxpay } from './providers/wxpay/index.js';

export interface PayOrder {
  tradeNo: string;
  /** Amount to charge in the gateway currency. */
  pay: number;
  amount: number;
  userId: number;
  /** The user's e-mail, '' when none. */
  email: string;
  /** `<SystemName>-Token充值:<amount>` (api.md §23.2). */
  subject: string;
  notifyUrl: string;
  returnUrl: string;
}

/** What providers read besides the gateway: the outside base URLs of the config. */
export interface PayEnv {
  config: Config;
}

export interface NotifyOutcome {
  notice: Omit<PaidNotice, 'gatewayId' | 'ip'> | null;
  ack: { status: number; body: string | Record<string, unknown>; contentType?: string };
}

/** One payment provider (Epay, Alipay, WeChat Pay, Stripe): turns an order into a pay request. */
export interface PayProvider {
  createPayment(gateway: PaymentRow, order: PayOrder, env: PayEnv): Promise<Pick<PayRequest, 'type' | 'data'>>;
  /** Runs once when the gateway is created (Stripe provisions its webhook); answers config keys to store. */
  setup?(gateway: PaymentRow, notifyUrl: string, env: PayEnv): Promise<Record<string, string>>;
  /**
   * Verifies a callback (`req.body` is the raw Buffer, for signatures over the exact bytes). Answers the
   * payment it proves (or null) and the acknowledgement the gateway expects, which is sent only after
   * the order is applied, so a failure there makes the gateway retry.
   */
  handleNotify?(gateway: PaymentRow, req: FastifyRequest): Promise<NotifyOutcome>;
}

const providers = new Map<string, PayProvider>([
  ['epay', epay],
  ['alipay', alipay],
  ['wxpay', wxpay],
  ['stripe', stripe],
]);

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
