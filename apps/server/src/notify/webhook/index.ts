import { createHmac } from 'node:crypto';
import type { Config } from '../../config/env.js';
import { postJson } from '../http.js';
import type { Target } from '../types.js';

/** `sha256=` + hex HMAC-SHA256(secret, `${timestamp}.${body}`), so a receiver can check origin and freshness. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** A generic JSON webhook: {event, title, text, timestamp}, signed in X-One-Hub-Signature when a secret is set. */
export function webhookTarget(config: Config): Target {
  return {
    name: 'webhook',
    async send(n) {
      const timestamp = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({ event: n.event, title: n.title, text: n.text, timestamp });
      const headers: Record<string, string> = { 'x-one-hub-timestamp': String(timestamp) };
      if (config.NOTIFY_WEBHOOK_SECRET) headers['x-one-hub-signature'] = webhookSignature(config.NOTIFY_WEBHOOK_SECRET, timestamp, body);
      await postJson(config.NOTIFY_WEBHOOK_URL, body, headers);
    },
  };
}
