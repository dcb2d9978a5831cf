import { useMemo } from 'react';
import { Alert, Stack } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import type { FieldSpec } from './option-draft';
import { OptionFields } from './OptionFields';
import { SwitchGrid } from './OptionSwitch';
import { SettingSection } from './SettingSection';
import { ChatLinksEditor } from './ChatLinksEditor';
import { LogCleanup } from './LogCleanup';
import { InvoiceMonthTool } from './InvoiceMonthTool';
import { useAppSelector } from '../../store';
import type { OptionMap } from './use-options';

const GENERAL: FieldSpec[] = [
  { key: 'TopUpLink' },
  { key: 'ChatLink' },
  { key: 'QuotaPerUnit', input: 'number', min: 0 },
  { key: 'RetryTimes', input: 'number', min: 0 },
  { key: 'RetryCooldownSeconds', input: 'number', min: 0 },
  { key: 'RetryTimeOut', input: 'number', min: 0 },
  { key: 'StreamIdleTimeoutSeconds', input: 'number', min: 0 },
  { key: 'ResponsesWebSocketIdleSeconds', input: 'number', min: 1 },
  { key: 'FirstByteTimeoutSeconds', input: 'number', min: 0 },
  { key: 'UserMaxInflight', input: 'number', min: 0 },
  { key: 'StickySessionTTLSeconds', input: 'number', min: 0 },
  { key: 'ResponsesRetentionHours', input: 'number', min: 0 },
];
const LOG: FieldSpec[] = [
  { key: 'LogRetentionDays', input: 'number', min: 0 },
  { key: 'LogCaptureRules', input: 'json' },
  { key: 'LogCaptureRedactPatterns', input: 'lines' },
  { key: 'LogCaptureMaxBytes', input: 'number', min: 1024 },
  { key: 'LogCaptureRetentionDays', input: 'number', min: 1 },
];
const OTHER: FieldSpec[] = [{ key: 'ChatImageRequestProxy' }, { key: 'CFWorkerImageUrl' }, { key: 'CFWorkerImageKey' }];
const MONITOR: FieldSpec[] = [
  { key: 'ChannelDisableThreshold', input: 'number', min: 0 },
  { key: 'QuotaRemindThreshold', input: 'number', min: 0 },
];
const QUOTA: FieldSpec[] = [
  { key: 'QuotaForNewUser', input: 'number', min: 0 },
  { key: 'DefaultPlanId', input: 'number', min: 0 },
  { key: 'PreConsumedQuota', input: 'number', min: 0 },
  { key: 'DefaultMaxOutputTokens', input: 'number', min: 1 },
  { key: 'QuotaForInviter', input: 'number', min: 0 },
  { key: 'QuotaForInvitee', input: 'number', min: 0 },
];
const PAYMENT: FieldSpec[] = [
  { key: 'PaymentUSDRate', input: 'number', min: 0 },
  { key: 'PaymentMinAmount', input: 'number', min: 0 },
  { key: 'RechargeDiscount', input: 'json' },
];
const KEYWORDS: FieldSpec[] = [{ key: 'DisableChannelKeywords', input: 'lines' }];
const CLAUDE: FieldSpec[] = [
  { key: 'ClaudeBudgetTokensPercentage', input: 'number', min: 0 },
  { key: 'ClaudeDefaultMaxTokens', input: 'json' },
];
const SAFE_TOOL_FALLBACK = ['Keyword'];
const GEMINI: FieldSpec[] = [{ key: 'GeminiOpenThink', input: 'json' }];

/** Operation tab (console-screens §9.1). */
export function OperationTab({ options }: { options: OptionMap }) {
  const { t } = useTranslation('setting');
  const tools = useQuery({ queryKey: ['safe-tools'], queryFn: () => api<string[]>('/api/option/safe_tools') });
  const invoices = useAppSelector((s) => Boolean(s.siteInfo.UserInvoiceMonth));
  const toolNames = tools.data ?? SAFE_TOOL_FALLBACK;
  const safety = useMemo<FieldSpec[]>(
    () => [{ key: 'EnableSafe', input: 'check' }, { key: 'SafeToolName', input: 'select', choices: toolNames }, { key: 'SafeKeyWords', input: 'lines' }],
    [toolNames],
  );
  return (
    <Stack spacing={3}>
      <SettingSection title={t('section.general')} testId="section-general">
        <SwitchGrid names={['DisplayInCurrencyEnabled', 'ApproximateTokenEnabled']} options={options} />
        <OptionFields fields={GENERAL} options={options} />
      </SettingSection>
      <SettingSection title={t('section.other')}>
        <SwitchGrid names={['MjNotifyEnabled', 'ClaudeAPIEnabled', 'GeminiAPIEnabled', 'ResponsesWebSocketEnabled']} options={options} />
        <Alert severity="info">{t('imageProxyInfo')}</Alert>
        <OptionFields fields={OTHER} options={options} />
      </SettingSection>
      <SettingSection title={t('section.log')}>
        <SwitchGrid names={['LogConsumeEnabled', 'LogErrorEnabled']} options={options} />
        <OptionFields fields={LOG} options={options} />
        <LogCleanup />
      </SettingSection>
      {invoices && (
        <SettingSection title={t('section.invoice')} testId="section-invoice">
          <InvoiceMonthTool />
        </SettingSection>
      )}
      <SettingSection title={t('section.monitor')}>
        <SwitchGrid names={['AutomaticDisableChannelEnabled', 'AutomaticEnableChannelEnabled', 'FetchAllowPrivateNetworks']} options={options} />
        <OptionFields fields={MONITOR} options={options} />
      </SettingSection>
      <SettingSection title={t('section.quota')}>
        <SwitchGrid names={['LowerMaxTokensToBalance']} options={options} />
        <OptionFields fields={QUOTA} options={options} />
      </SettingSection>
      <SettingSection title={t('section.payment')}>
        <Alert severity="info">{t('paymentInfo')}</Alert>
        <OptionFields fields={PAYMENT} options={options} />
      </SettingSection>
      <SettingSection title={t('section.chatLinks')}>
        <ChatLinksEditor options={options} />
      </SettingSection>
      <SettingSection title={t('section.keywords')}>
        <OptionFields fields={KEYWORDS} options={options} />
      </SettingSection>
      <SettingSection title={t('section.claude')}>
        <SwitchGrid names={['ClaudeCountTokensForward']} options={options} />
        <OptionFields fields={CLAUDE} options={options} />
      </SettingSection>
      <SettingSection title={t('section.gemini')}>
        <OptionFields fields={GEMINI} options={options} />
      </SettingSection>
      <SettingSection title={t('section.safety')}>
        <OptionFields fields={safety} options={options} />
      </SettingSection>
    </Stack>
  );
}
