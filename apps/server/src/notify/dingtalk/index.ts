import { createHmac } from 'node:crypto';
import type { Config } from '../../config/env.js';
import { postJson } from '../http.js';
import type { Target } from '../types.js';

/** DingTalk's robot signature: base64(HMAC-SHA256(secret, `${timestamp}\n${secret}`)), timestamp in ms. */
export function dingTalkSign(secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
}

/** A DingTalk group robot: access token in the URL, signed when a secret is set, keyword in the text. */
export function dingTalkTarget(config: Config): Target {
  return {
    name: 'dingtalk',
    async send(n) {
      const url = new URL(config.NOTIFY_DINGTALK_URL);
      url.searchParams.set('access_token', config.NOTIFY_DINGTALK_TOKEN);
      if (config.NOTIFY_DINGTALK_SECRET) {
        const timestamp = Date.now();
        url.searchParams.set('timestamp', String(timestamp));
        url.searchParams.set('sign', dingTalkSign(config.NOTIFY_DINGTALK_SECRET, timestamp));
      }
      const keyword = config.NOTIFY_DINGTALK_KEYWORD ? `${config.NOTIFY_DINGTALK_KEYWORD} ` : '';
      const answer = await postJson(url.toString(), { msgtype: 'text', text: { content: `${keyword}${n.title}\n${n.text}` } });
      if (answer?.errcode !== 0) throw new Error(`dingtalk refused: ${answer?.errmsg ?? 'no answer'}`);
    },
  };
}
