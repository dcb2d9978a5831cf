import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { trimTrailingSlash } from '@one-hub/contract';
import type { FieldSpec } from './option-draft';
import { OptionFields } from './OptionFields';
import { SwitchGrid } from './OptionSwitch';
import { SettingSection } from './SettingSection';
import { DomainWhitelist } from './DomainWhitelist';
import { useLockoutConfirm } from './LockoutDialog';
import type { OptionMap } from './use-options';

const SERVER: FieldSpec[] = [{ key: 'ServerAddress', url: true, wide: true }];
const SMTP: FieldSpec[] = [{ key: 'SMTPServer' }, { key: 'SMTPPort', input: 'number', min: 0, optional: true }, { key: 'SMTPAccount' }, { key: 'SMTPFrom' }, { key: 'SMTPToken' }, { key: 'SMTPSSLEnabled', input: 'check' }];
const GITHUB: FieldSpec[] = [{ key: 'GitHubClientId' }, { key: 'GitHubClientSecret' }];
const WECHAT: FieldSpec[] = [{ key: 'WeChatServerAddress', url: true }, { key: 'WeChatServerToken' }, { key: 'WeChatAccountQRCodeImageURL' }];
const LARK: FieldSpec[] = [{ key: 'LarkClientId' }, { key: 'LarkClientSecret' }];
const LINUXDO: FieldSpec[] = [{ key: 'LinuxDoClientId' }, { key: 'LinuxDoClientSecret' }, { key: 'LinuxDoMinTrustLevel', input: 'number', min: 0 }];
const TURNSTILE: FieldSpec[] = [{ key: 'TurnstileSiteKey' }, { key: 'TurnstileSecretKey' }];
const OIDC: FieldSpec[] = [{ key: 'OIDCClientId' }, { key: 'OIDCClientSecret' }, { key: 'OIDCIssuer' }, { key: 'OIDCScopes' }, { key: 'OIDCUsernameClaims' }];

/** The URLs an OAuth provider must be given, from the server address. */
function CallbackUrls({ server, paths }: { server: string; paths: Array<[string, string]> }) {
  const { t } = useTranslation('setting');
  const base = trimTrailingSlash(server || window.location.origin);
  return (
    <Box sx={{ p: 1.5, borderRadius: 1.5, bgcolor: 'action.hover', fontSize: 13.5 }}>
      {paths.map(([label, path]) => (
        <Typography key={label} variant="body2" sx={{ wordBreak: 'break-all' }}>
          {t(label)}: <Box component="code" sx={{ fontFamily: 'monospace' }}>{`${base}${path}`}</Box>
        </Typography>
      ))}
    </Box>
  );
}

/** System tab (console-screens §9.2). */
export function SystemTab({ options }: { options: OptionMap }) {
  const { t } = useTranslation('setting');
  const lockout = useLockoutConfirm();
  const server = options.ServerAddress ?? '';
  return (
    <Stack spacing={3}>
      <SettingSection title={t('section.server')}>
        <OptionFields fields={SERVER} options={options} saveLabel="updateServerAddress" />
      </SettingSection>
      <SettingSection title={t('section.login')} testId="section-login">
        <SwitchGrid
          names={['PasswordLoginEnabled', 'PasswordRegisterEnabled', 'EmailVerificationEnabled', 'GitHubOAuthEnabled', 'WeChatAuthEnabled', 'LarkAuthEnabled', 'OIDCAuthEnabled', 'RegisterEnabled', 'TurnstileCheckEnabled', 'GitHubOldIdCloseEnabled', 'LinuxDoOAuthEnabled', 'TwoFactorRequiredForAdmins']}
          options={options}
          confirmOff={{ PasswordLoginEnabled: lockout.ask }}
        />
      </SettingSection>
      <SettingSection title={t('section.emailDomain')}>
        <SwitchGrid names={['EmailDomainRestrictionEnabled']} options={options} />
        <DomainWhitelist options={options} />
      </SettingSection>
      <SettingSection title={t('section.smtp')}>
        <OptionFields fields={SMTP} options={options} saveLabel="saveSmtp" />
      </SettingSection>
      <SettingSection title={t('section.github')}>
        <CallbackUrls server={server} paths={[['homepageUrl', ''], ['callbackUrl', '/oauth/github']]} />
        <OptionFields fields={GITHUB} options={options} saveLabel="saveGithub" />
      </SettingSection>
      <SettingSection title={t('section.wechat')}>
        <OptionFields fields={WECHAT} options={options} saveLabel="saveWechat" />
      </SettingSection>
      <SettingSection title={t('section.lark')}>
        <CallbackUrls server={server} paths={[['callbackUrl', '/oauth/lark']]} />
        <OptionFields fields={LARK} options={options} saveLabel="saveLark" />
      </SettingSection>
      <SettingSection title={t('section.linuxdo')}>
        <CallbackUrls server={server} paths={[['callbackUrl', '/oauth/linuxdo']]} />
        <OptionFields fields={LINUXDO} options={options} saveLabel="saveLinuxdo" />
      </SettingSection>
      <SettingSection title={t('section.turnstile')}>
        <OptionFields fields={TURNSTILE} options={options} saveLabel="saveTurnstile" />
      </SettingSection>
      <SettingSection title={t('section.oidc')}>
        <CallbackUrls server={server} paths={[['callbackUrl', '/oauth/oidc']]} />
        <OptionFields fields={OIDC} options={options} saveLabel="saveOidc" />
      </SettingSection>
      {lockout.dialog}
    </Stack>
  );
}
