import type { PayRequest } from '@one-hub/contract';
import type { PaymentRow } from '../../db/repos/payments.js';

export interface PayOrder {
  tradeNo: string;
  /** Amount to charge in the gateway currency. */
  pay: number;
  amount: number;
  userId: number;
  notifyUrl: string;
  returnUrl: string;
}

/** One payment provider (Epay, Alipay, WeChat Pay, Stripe): turns an order into a pay request. */
export interface PayProvider {
  createPayment(gateway: PaymentRow, order: PayOrder): Promise<Pick<PayRequest, 'type' | 'data'>>;
}

// Filled by the payment-provider issue; until then orders are created but no payment is started.
const providers = new Map<string, PayProvider>();

export function registerPayProvider(type: string, provider: PayProvider): void {
  providers.set(type, provider);
}

export function payProviderFor(type: string): PayProvider | undefined {
  return providers.get(type);
}
