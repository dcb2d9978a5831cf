import { describe, expect, it } from 'vitest';
import { OPTION_DEFS, checkOptionText, readOptionText, type OptionKey } from './option.js';
import { PageQuery } from './envelope.js';

describe('option catalogue', () => {
  it('has a default of the right kind for every key', () => {
    for (const key of Object.keys(OPTION_DEFS) as OptionKey[]) {
      expect(checkOptionText(key, OPTION_DEFS[key].default), key).toBeNull();
    }
  });

  it('reads and checks text by kind', () => {
    expect(readOptionText('DisplayInCurrencyEnabled', 'true')).toBe(true);
    expect(readOptionText('DisplayInCurrencyEnabled', 'yes')).toBe(false);
    expect(readOptionText('QuotaPerUnit', '250000.5')).toBe(250000.5);
    expect(checkOptionText('RetryTimes', '2.5')).toMatch(/integer/);
    expect(checkOptionText('ClaudeDefaultMaxTokens', '{bad')).toMatch(/JSON/);
    expect(checkOptionText('PasswordLoginEnabled', 'TRUE')).toMatch(/true or false/);
  });

  it('registers the 72 keys of api.md §4, the two Lark credentials and our own relay settings, with their defaults', () => {
    const ours = ['StreamIdleTimeoutSeconds', 'ClaudeCountTokensForward', 'ResponsesRetentionHours', 'StickySessionTTLSeconds', 'FirstByteTimeoutSeconds', 'UserMaxInflight', 'FetchAllowPrivateNetworks', 'LogErrorEnabled', 'DefaultMaxOutputTokens', 'LowerMaxTokensToBalance', 'AuditLogRetentionDays', 'LinuxDoOAuthEnabled', 'LinuxDoClientId', 'LinuxDoClientSecret', 'LinuxDoMinTrustLevel', 'TwoFactorRequiredForAdmins', 'LogRetentionDays', 'DisabledJobs', 'SMTPSSLEnabled', 'DefaultPlanId', 'LogCaptureRules', 'LogCaptureRedactPatterns', 'LogCaptureMaxBytes', 'LogCaptureRetentionDays', 'ResponsesWebSocketEnabled', 'ResponsesWebSocketIdleSeconds'];
    for (const key of ours) expect(OPTION_DEFS).toHaveProperty(key);
    expect(Object.keys(OPTION_DEFS)).toHaveLength(72 + 2 + ours.length);
    expect(checkOptionText('LogCaptureRules', '[{"kind":"token","id":3,"until":1900000000}]')).toBeNull();
    expect(checkOptionText('LogCaptureRules', '[{"kind":"team","id":3,"until":1}]')).toContain('LogCaptureRules: 0.kind');
    expect([OPTION_DEFS.StreamIdleTimeoutSeconds.default, OPTION_DEFS.ResponsesRetentionHours.default, OPTION_DEFS.StickySessionTTLSeconds.default]).toEqual(['300', '72', '3600']);
    expect([OPTION_DEFS.FirstByteTimeoutSeconds.default, OPTION_DEFS.UserMaxInflight.default]).toEqual(['60', '128']);
    expect([OPTION_DEFS.ResponsesWebSocketEnabled.default, OPTION_DEFS.ResponsesWebSocketIdleSeconds.default]).toEqual(['true', '120']);
    expect(OPTION_DEFS.LarkClientId.default).toBe('');
    expect(OPTION_DEFS.ServerAddress.default).toBe('http://localhost:3000');
    expect(OPTION_DEFS.ClaudeDefaultMaxTokens).toMatchObject({ kind: 'json', default: '{"default":8192}' });
    expect(OPTION_DEFS.EmailDomainWhitelist.default.split(',')).toHaveLength(9);
    expect(OPTION_DEFS.DisableChannelKeywords.default.split('\n')).toHaveLength(12);
    expect([OPTION_DEFS.PreConsumedQuota.default, OPTION_DEFS.PaymentUSDRate.default, OPTION_DEFS.SafeToolName.default]).toEqual(['500', '7.3', 'Keyword']);
  });

  it('treats every key ending in Token or Secret as a secret, and exactly those plus the two leaking keys', () => {
    const secrets = Object.entries(OPTION_DEFS)
      .filter(([, d]) => 'secret' in d && d.secret)
      .map(([k]) => k)
      .sort();
    const byName = Object.keys(OPTION_DEFS).filter((k) => /(Token|Secret)$/.test(k));
    expect(secrets).toEqual([...byName, 'TurnstileSecretKey', 'CFWorkerImageKey'].sort());
  });

  it('marks every write-only secret', () => {
    const secrets = Object.entries(OPTION_DEFS)
      .filter(([, d]) => 'secret' in d && d.secret)
      .map(([k]) => k);
    expect(secrets).toEqual(
      expect.arrayContaining(['SMTPToken', 'GitHubClientSecret', 'OIDCClientSecret', 'WeChatServerToken', 'TurnstileSecretKey', 'CFWorkerImageKey']),
    );
  });
});

describe('PageQuery', () => {
  it('normalises page and size and rejects sizes over 100', () => {
    expect(PageQuery.parse({ page: '0', size: '-3' })).toMatchObject({ page: 1, size: 10, order: '', keyword: '' });
    expect(PageQuery.parse({ page: '3', size: '20', order: '-id' })).toMatchObject({ page: 3, size: 20, order: '-id' });
    expect(PageQuery.safeParse({ size: '101' }).success).toBe(false);
  });
});

describe('option bounds', () => {
  it('refuses negative and absurd values of the numeric options and accepts the edges', () => {
    expect(checkOptionText('PreConsumedQuota', '-1')).toMatch(/at least 0/);
    expect(checkOptionText('PreConsumedQuota', '9007199254740992')).toMatch(/integer/);
    expect(checkOptionText('PreConsumedQuota', String(Number.MAX_SAFE_INTEGER))).toBeNull();
    expect(checkOptionText('QuotaForNewUser', '99999999999999999999')).toMatch(/integer/);
    expect(checkOptionText('RetryTimes', '-3')).toMatch(/at least 0/);
    expect(checkOptionText('RetryTimes', '1000000')).toMatch(/at most 10/);
    expect(checkOptionText('RetryTimes', '10')).toBeNull();
    expect(checkOptionText('RetryCooldownSeconds', '-5')).toMatch(/at least 0/);
    expect(checkOptionText('RetryTimeOut', '99999999')).toMatch(/at most/);
    expect(checkOptionText('StreamIdleTimeoutSeconds', '0')).toBeNull();
    expect(checkOptionText('ClaudeBudgetTokensPercentage', '1.5')).toMatch(/at most 1/);
    expect(checkOptionText('SMTPPort', '70000')).toMatch(/at most 65535/);
    expect(checkOptionText('OldTokenMaxId', '-1')).toMatch(/at least 0/);
  });
});
