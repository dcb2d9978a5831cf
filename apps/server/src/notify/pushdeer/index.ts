import type { Config } from '../../config/env.js';
import { postJson } from '../http.js';
import type { Target } from '../types.js';

/** PushDeer's /message/push with the push key; the answer's code 0 means delivered. */
export function pushDeerTarget(config: Config): Target {
  return {
    name: 'pushdeer',
    async send(n) {
      const url = `${config.NOTIFY_PUSHDEER_URL.replace(/\/+$/, '')}/message/push`;
      const answer = await postJson(url, { pushkey: config.NOTIFY_PUSHDEER_PUSHKEY, text: n.title, desp: n.text, type: 'markdown' });
      if (answer?.code !== 0) throw new Error(`pushdeer refused: ${answer?.error ?? 'no answer'}`);
    },
  };
}
