import { beforeAll, describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { LOG_MESSAGES, SEEDED_GROUP_NAMES } from '@one-hub/contract';
import i18n from './i18n';
import { makeStore } from '../store';
import { SERVER_TEXT_NS, useServerText } from './server-text';

const locales = import.meta.glob<{ default: { log: Record<string, string>; group: Record<string, string> } }>('../features/server-text/locales/*.json', { eager: true });
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;

function hook() {
  const store = makeStore();
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  return renderHook(() => useServerText(), { wrapper }).result.current;
}

describe('server text in the reader language', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en_US');
    await i18n.loadNamespaces(SERVER_TEXT_NS);
  });

  it('has every server log message and seeded group in all four languages', () => {
    expect(Object.keys(locales)).toHaveLength(4);
    for (const [path, mod] of Object.entries(locales)) {
      expect(Object.keys(mod.default.log).sort(), path).toEqual(Object.keys(LOG_MESSAGES).sort());
      expect(Object.keys(mod.default.group).sort(), path).toEqual(Object.keys(SEEDED_GROUP_NAMES).sort());
    }
  });

  it('renders a keyed log row in English with its quota formatted, and a plain old row as stored', () => {
    const s = hook();
    const text = s.logText({ content: '管理员增减用户额度 ＄1.000000 额度, 备注: gift', metadata: { msg: { key: 'admin_quota_remark', args: { quota: 500000, remark: 'gift' } } } });
    expect(text).toBe('Administrator changed the balance by $1.000000, note: gift');
    expect(CJK.test(text)).toBe(false);
    expect(s.logText({ content: 'old text', metadata: null })).toBe('old text');
    expect(s.logText({ content: 'unknown key', metadata: { msg: { key: 'not_a_key', args: {} } } })).toBe('unknown key');
    for (const key of Object.keys(LOG_MESSAGES)) expect(CJK.test(s.logText({ content: '中文', metadata: { msg: { key, args: { path: '/v1/files' } } } })), key).toBe(false);
  });

  it('shows a task refund and a returned hold in currency, not raw quota points', () => {
    const s = hook();
    expect(s.logText({ content: '异步任务执行失败 t-1，补偿 250000', metadata: { msg: { key: 'task_failed_refund', args: { task: 't-1', refund: 250000 } } } })).toBe('Task t-1 failed, refunded $0.500000');
    expect(s.logText({ content: '构图失败 mj-1，补偿 50000', metadata: { msg: { key: 'mj_failed_refund', args: { task: 'mj-1', refund: 50000 } } } })).toBe('Image task mj-1 failed, refunded $0.100000');
    expect(s.logText({ content: '任务提交失败', metadata: { msg: { key: 'task_refused', args: { held: 500000, reason: 'x' } } } })).toContain('$1.000000');
  });

  it('translates seeded group names but keeps names an administrator typed', () => {
    const s = hook();
    expect(s.groupName('default', '默认分组')).toBe('Default group');
    expect(s.groupName('vip', 'vip分组')).toBe('VIP group');
    expect(s.groupName('vip', 'Gold members')).toBe('Gold members');
    expect(s.groupName('team', '')).toBe('team');
    expect(s.ownerName('未知')).toBe('Unknown');
    expect(s.ownerName('OpenAI')).toBe('OpenAI');
  });
});
