import type { Config } from '../../config/env.js';
import { postJson } from '../http.js';
import type { Target } from '../types.js';

/** A WeCom group robot: its full webhook URL (with the key) from NOTIFY_WECOM_WEBHOOK. */
export function weComTarget(config: Config): Target {
  return {
    name: 'wecom',
    async send(n) {
      const answer = await postJson(config.NOTIFY_WECOM_WEBHOOK, { msgtype: 'text', text: { content: `${n.title}\n${n.text}` } });
      if (answer?.errcode !== 0) throw new Error(`wecom refused: ${answer?.errmsg ?? 'no answer'}`);
    },
  };
}
