import { describe, expect, it } from 'vitest';
import type { Token } from '@one-hub/contract';
import { formToBody, fromLocalInput, tokenState, tokenToForm, toLocalInput, validateTokenForm } from './token-form';

const token: Token = {
  id: 7,
  user_id: 3,
  key: 'abc',
  status: 1,
  name: 'bot',
  created_time: 1,
  accessed_time: 0,
  expired_time: 1_900_000_000,
  remain_quota: 500,
  unlimited_quota: false,
  used_quota: 0,
  group: 'vip',
  backup_group: 'default',
  mcp_tools: 'github/*, search/web_search',
  setting: {
    heartbeat: { enabled: true, timeout_seconds: 45 },
    limits: {
      limit_model_setting: { enabled: true, models: ['gpt-4o'] },
      limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/8'] },
      request_limits: { rpm: 60, tpm: 0, max_inflight: 2, daily_quota: 0, monthly_quota: 900000 },
    },
    billing_tag: 'vip',
  },
};

describe('token form', () => {
  it('starts a new token never-expiring and unlimited', () => {
    const f = tokenToForm();
    expect(f.limits).toEqual({ rpm: '', tpm: '', max_inflight: '', daily_quota: '', monthly_quota: '' });
    expect(formToBody({ ...f, name: 'n' }, false).setting.limits.request_limits).toEqual({ rpm: 0, tpm: 0, max_inflight: 0, daily_quota: 0, monthly_quota: 0 });
    expect(f).toMatchObject({ name: '', neverExpires: true, unlimited: true, remainQuota: '0', heartbeatTimeout: '30', group: '', limitModels: false });
    expect(validateTokenForm(f)).toEqual({ name: 'errors.nameRequired' });
  });

  it('round-trips a stored token into the same body', () => {
    const body = formToBody(tokenToForm(token), true);
    expect(body).toEqual({
      name: 'bot',
      expired_time: Math.floor(fromLocalInput(toLocalInput(1_900_000_000))),
      unlimited_quota: false,
      remain_quota: 500,
      group: 'vip',
      backup_group: 'default',
      mcp_tools: 'github/*,search/web_search',
      setting: {
        heartbeat: { enabled: true, timeout_seconds: 45 },
        limits: {
          limit_model_setting: { enabled: true, models: ['gpt-4o'] },
          limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/8'] },
          request_limits: { rpm: 60, tpm: 0, max_inflight: 2, daily_quota: 0, monthly_quota: 900000 },
        },
        billing_tag: 'vip',
      },
    });
    // minute precision of the picker
    expect(Math.abs(body.expired_time - 1_900_000_000)).toBeLessThan(60);
  });

  it('reports each rule', () => {
    const limits = { ...tokenToForm(token).limits, tpm: '1.5' };
    const f = { ...tokenToForm(token), name: 'x'.repeat(31), remainQuota: '-1', heartbeatTimeout: '20', ipText: '10.0.0.1\n\nnot-an-ip', expiry: 'nonsense', transferTo: 'abc', limits, mcpTools: 'github' };
    expect(validateTokenForm(f)).toEqual({
      name: 'errors.nameTooLong',
      remainQuota: 'errors.quota',
      heartbeatTimeout: 'errors.heartbeat',
      ipText: 'errors.ip',
      expiry: 'errors.badDate',
      transferTo: 'errors.userId',
      limits: 'errors.limits',
      mcpTools: 'errors.mcpTools',
    });
    // 10 CJK characters are 30 bytes: allowed; 11 are not
    expect(validateTokenForm({ ...f, name: '令'.repeat(10) }).name).toBeUndefined();
    expect(validateTokenForm({ ...f, name: '令'.repeat(11) }).name).toBe('errors.nameTooLong');
    // MCP patterns: server/tool with * wildcards, comma-separated; empty allows every tool
    expect(validateTokenForm({ ...f, mcpTools: '' }).mcpTools).toBeUndefined();
    expect(validateTokenForm({ ...f, mcpTools: 'github/*, */search,docs/read.file' }).mcpTools).toBeUndefined();
    expect(validateTokenForm({ ...f, mcpTools: 'github/*,' }).mcpTools).toBe('errors.mcpTools');
    expect(validateTokenForm({ ...f, mcpTools: 'GitHub/x' }).mcpTools).toBe('errors.mcpTools');
  });

  it('drops switched-off lists, blank IP lines and a backup equal to the group; leaves billing tag out for common users', () => {
    const f = { ...tokenToForm(token), limitModels: false, ipText: ' 1.2.3.4 \n\n', backupGroup: 'vip' };
    const body = formToBody(f, false);
    expect(body.setting.limits.limit_model_setting).toEqual({ enabled: false, models: [] });
    expect(body.setting.limits.limits_ip_setting.whitelist).toEqual(['1.2.3.4']);
    expect(body.backup_group).toBe('');
    expect('billing_tag' in body.setting).toBe(false);
  });

  it('shows a token past its expiry as expired, not as a switch', () => {
    expect(tokenState({ status: 1, expired_time: -1 }, 1000)).toBe('switch');
    expect(tokenState({ status: 2, expired_time: 2000 }, 1000)).toBe('switch');
    expect(tokenState({ status: 1, expired_time: 999 }, 1000)).toBe('expired');
    expect(tokenState({ status: 3, expired_time: -1 }, 1000)).toBe('expired');
    expect(tokenState({ status: 4, expired_time: -1 }, 1000)).toBe('exhausted');
  });
});
