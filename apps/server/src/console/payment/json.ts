import type { Order, PaymentGateway, PublicGateway } from '@one-hub/contract';
import type { PaymentRow } from '../../db/repos/payments.js';
import type { OrderRow } from '../../db/repos/orders.js';
import { maskConfig } from './secrets.js';

export function toPaymentJson(row: PaymentRow): PaymentGateway {
  return {
    id: row.id,
    type: row.type,
    uuid: row.uuid,
    name: row.name,
    icon: row.icon,
    notify_domain: row.notify_domain,
    fixed_fee: row.fixed_fee,
    percent_fee: row.percent_fee,
    currency: row.currency,
    config: maskConfig(row.config),
    sort: row.sort,
    enable: Boolean(row.enable),
    created_at: row.created_at,
  };
}

/** What a user may see of a gateway: never its credentials. */
export function toPublicGateway(row: PaymentRow): PublicGateway {
  return {
    uuid: row.uuid,
    name: row.name,
    icon: row.icon,
    fixed_fee: row.fixed_fee,
    percent_fee: row.percent_fee,
    currency: row.currency,
    sort: row.sort,
  };
}

export function toOrderJson(row: OrderRow): Order {
  return {
    id: row.id,
    user_id: row.user_id,
    gateway_id: row.gateway_id,
    trade_no: row.trade_no,
    gateway_no: row.gateway_no,
    amount: row.amount,
    order_amount: row.order_amount,
    order_currency: row.order_currency,
    quota: row.quota,
    fee: row.fee,
    discount: row.discount,
    status: row.status,
    fail_reason: row.fail_reason,
    created_at: row.created_at,
  };
}
