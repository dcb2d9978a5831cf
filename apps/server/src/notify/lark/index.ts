import { createHmac } from 'node:crypto';
import type { Config } from '../../config/env.js';
import { postJson } from '../http.js';
import type { Target } from '../types.js';

/** Feishu/Lark's robot signature: base64(HMAC-SHA256 keyed by `${timestamp}\n${secret}` over nothing), timestamp in s. */
export function larkSign(secret: string, timestamp: number): string {
  return createHmac('sha256', `${timestamp}\n${secret}`).digest('base64');
}

/** A Feishu/Lark custom robot at {NOTIFY_LARK_URL}/{token}; signed when a secret is set. */
export function larkTarget(config: Config): Target {
  return {
    name: 'lark',
    async send(n) {
      const keyword = config.NOTIFY_LARK_KEYWORD ? `${config.NOTIFY_LARK_KEYWORD} ` : '';
      const body: Record<string, unknown> = { msg_type: 'text', content: { text: `${keyword}${n.title}\n${n.text}` } };
      if (config.NOTIFY_LARK_SECRET) {
        const timestamp = Math.floor(Date.now() / 1000);
        Object.assign(body, { timestamp: String(timestamp), sign: larkSign(config.NOTIFY_LARK_SECRET, timestamp) });
      }
      const answer = await postJson(`${config.NOTIFY_LARK_URL.replace(/\/+$/, '')}/${config.NOTIFY_LARK_TOKEN}`, body);
      const code = answer?.code ?? answer?.StatusCode;
      if (code !== 0) throw new Error(`lark refused: ${answer?.msg ?? answer?.StatusMessage ?? 'no answer'}`);
    },
  };
}
