import { z } from 'zod';
import { text } from './format/text.js';

export const PasskeyRegisterBody = z.object({ alias: text().trim().max(64, '名称过长').optional() }).optional();

/** `username: ""` asks for a discoverable (username-less) sign-in. */
export const PasskeyLoginBody = z.object({ username: text({ error: '请求参数错误' }).trim().max(64) }, { error: '请求参数错误' });

export interface PasskeyCredential {
  id: number;
  /** Raw credential id, standard base64. */
  credential_id: string;
  alias: string;
  created_time: number;
}
