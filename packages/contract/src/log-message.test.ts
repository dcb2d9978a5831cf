import { describe, expect, it } from 'vitest';
import { fillTemplate, LOG_MESSAGES, logMessage, logMessageOf } from './log-message.js';

describe('server log messages', () => {
  it('writes the Chinese text with quota arguments formatted, and keeps the raw arguments', () => {
    const m = logMessage('redeem_topup', { quota: 500000 }, (q) => `＄${(q / 500000).toFixed(6)} 额度`);
    expect(m.content).toBe('通过兑换码充值 ＄1.000000 额度');
    expect(m.msg).toEqual({ key: 'redeem_topup', args: { quota: 500000 } });
  });

  it('leaves non-quota arguments as they are and empties missing ones', () => {
    expect(fillTemplate(LOG_MESSAGES.mj_failed_refund, { task: 'mj-1', refund: 300 }, () => 'X')).toBe('构图失败 mj-1，补偿 300');
    expect(fillTemplate('{{a}}-{{b}}', { a: 1 })).toBe('1-');
  });

  it('reads a key from metadata only when it is a known one', () => {
    expect(logMessageOf({ msg: { key: 'relay_passthrough', args: { path: '/v1/files' } } })).toEqual({ key: 'relay_passthrough', args: { path: '/v1/files' } });
    expect(logMessageOf({ msg: { key: 'nope', args: {} } })).toBeNull();
    expect(logMessageOf({ group_ratio: 1 })).toBeNull();
    expect(logMessageOf(null)).toBeNull();
  });
});
