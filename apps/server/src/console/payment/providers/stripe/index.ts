import type Stripe from 'stripe';
import type { PaymentRow } from '../../../../db/repos/payments.js';
import type { NotifyOutcome, PayEnv, PayOrder, PayProvider } from '../../providers.js';
import { gatewayConfig } from '../config.js';
import { lazyRequire } from '../../../../common/lazy-require.js';

const sdk = lazyRequire<typeof Stripe>('stripe');

const EVENT = 'checkout.session.completed';
/** Stripe-Signature timestamps older than this are refused (replays of captured webhooks). */
const TOLERANCE_SECONDS = 300;

/** A client for the gateway's secret key, aimed at STRIPE_BASE_URL. */
function client(gateway: PaymentRow, env: PayEnv): Stripe {
  const key = gatewayConfig(gateway).secret_key;
  if (!key) throw new Error('stripe gateway has no secret_key');
  const url = new URL(env.config.STRIPE_BASE_URL);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new (sdk())(key, { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol, maxNetworkRetries: 1, timeout: 20_000 });
}

/**
 * Finds or creates the webhook endpoint for the notify URL. Stripe reveals an endpoint's secret only
 * when it is created, so an existing endpoint is reused only while a secret for it is stored;
 * otherwise a new endpoint is made (never an empty secret, unlike the original).
 */
async function setup(gateway: PaymentRow, notifyUrl: string, env: PayEnv): Promise<Record<string, string>> {
  const stripe = client(gateway, env);
  const stored = gatewayConfig(gateway).webhook_secret;
  if (stored) {
    for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) {
      if (endpoint.url === notifyUrl && endpoint.enabled_events.includes(EVENT)) return { webhook_secret: stored };
    }
  }
  // Events in the SDK's own API version, whatever the account's default is.
  const created = await stripe.webhookEndpoints.create({ url: notifyUrl, enabled_events: [EVENT], api_version: sdk().API_VERSION, description: 'One Hub top-up' });
  if (!created.secret) throw new Error('Stripe created the webhook endpoint without a signing secret');
  return { webhook_secret: created.secret };
}

async function createPayment(gateway: PaymentRow, order: PayOrder, env: PayEnv) {
  const session = await client(gateway, env).checkout.sessions.create({
    mode: 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: { currency: gateway.currency.toLowerCase(), unit_amount: Math.round(order.pay * 100), product_data: { name: order.subject } },
      },
    ],
    client_reference_id: order.tradeNo,
    metadata: { user_id: String(order.userId), trade_no: order.tradeNo },
    ...(order.email ? { customer_email: order.email } : {}),
    success_url: order.returnUrl,
    cancel_url: order.returnUrl,
  });
  if (!session.url) throw new Error('Stripe answered a Checkout Session without a URL');
  return { type: 1, data: { url: session.url, params: { tradeNo: order.tradeNo, linkId: session.id } } };
}

const refuse = (message: string): NotifyOutcome => ({ notice: null, ack: { status: 400, body: message, contentType: 'text/plain; charset=utf-8' } });
const ACK: NotifyOutcome['ack'] = { status: 200, body: '', contentType: 'text/plain; charset=utf-8' };

/** Verifies `Stripe-Signature` over the raw bytes; only a paid completed Checkout Session is a payment. */
export function verifyStripeWebhook(gateway: PaymentRow, raw: unknown, signature: string | undefined, now = Date.now()): NotifyOutcome {
  const secret = gatewayConfig(gateway).webhook_secret;
  if (!secret) return refuse('webhook secret is not set');
  if (!Buffer.isBuffer(raw) || !signature) return refuse('missing signature');
  let event: Stripe.Event;
  try {
    event = sdk().webhooks.constructEvent(raw, signature, secret, TOLERANCE_SECONDS, undefined, now);
  } catch {
    return refuse('invalid signature');
  }
  if (event.type !== EVENT) return { notice: null, ack: ACK };
  const session = event.data.object;
  if (session.payment_status !== 'paid' || !session.client_reference_id || session.amount_total == null || !session.currency) return { notice: null, ack: ACK };
  const intent = session.payment_intent;
  return {
    notice: {
      tradeNo: session.client_reference_id,
      gatewayNo: (typeof intent === 'string' ? intent : intent?.id) ?? session.id,
      paid: { amount: session.amount_total / 100, currency: session.currency },
    },
    ack: ACK,
  };
}

export const stripe: PayProvider = {
  setup,
  createPayment,
  handleNotify: async (gateway, req) => {
    const header = req.headers['stripe-signature'];
    return verifyStripeWebhook(gateway, req.body, Array.isArray(header) ? header.join(',') : header);
  },
};
