import { createDecipheriv, createSign, createVerify, randomBytes, type KeyObject } from 'node:crypto';

/** The request signature of API v3: `METHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nBODY\n`, SHA256withRSA, base64. */
export function wxpayAuthorization(opts: { method: string; path: string; body: string; mchId: string; serial: string; key: KeyObject; timestamp?: number; nonce?: string }): string {
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const nonce = opts.nonce ?? randomBytes(16).toString('hex');
  const message = `${opts.method}\n${opts.path}\n${timestamp}\n${nonce}\n${opts.body}\n`;
  const signature = createSign('RSA-SHA256').update(message, 'utf8').sign(opts.key, 'base64');
  return `WECHATPAY2-SHA256-RSA2048 mchid="${opts.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${opts.serial}"`;
}

export interface WxpayHeaders {
  timestamp?: string;
  nonce?: string;
  signature?: string;
  serial?: string;
}

/**
 * Verifies an answer or a notify of WeChat Pay (`TIMESTAMP\nNONCE\nBODY\n` with the WeChat Pay public key
 * whose id is `serial`); timestamps more than 5 minutes off are refused, so captured notifies cannot be replayed later.
 */
export function wxpayVerify(h: WxpayHeaders, body: string, key: KeyObject, keyId: string, now = Date.now()): boolean {
  if (!h.timestamp || !h.nonce || !h.signature || h.serial !== keyId) return false;
  if (!/^\d+$/.test(h.timestamp) || Math.abs(now / 1000 - Number(h.timestamp)) > 300) return false;
  try {
    return createVerify('RSA-SHA256').update(`${h.timestamp}\n${h.nonce}\n${body}\n`, 'utf8').verify(key, h.signature, 'base64');
  } catch {
    return false;
  }
}

export interface EncryptedResource {
  algorithm: string;
  ciphertext: string;
  associated_data?: string;
  nonce: string;
}

/** AEAD_AES_256_GCM with the APIv3 key: ciphertext is base64 of the encrypted bytes followed by the 16-byte tag. */
export function wxpayDecrypt(r: EncryptedResource, apiV3Key: string): string {
  if (r.algorithm !== 'AEAD_AES_256_GCM') throw new Error(`unsupported algorithm ${r.algorithm}`);
  const data = Buffer.from(r.ciphertext, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(r.nonce, 'utf8'));
  decipher.setAAD(Buffer.from(r.associated_data ?? '', 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
}
