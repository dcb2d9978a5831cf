import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Divider, Link, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LoginForm, type User } from '@one-hub/contract';
import type { z } from 'zod';
import PasswordField from '../../components/PasswordField';
import { apiWithMessage } from '../../lib/api';
import { notifyServerMessage } from '../../lib/error-handler';
import { serverFieldErrors } from '../../lib/form-errors';
import { showError, showInfo, showSuccess } from '../../lib/toast';
import Turnstile from '../../components/Turnstile';
import { useAppDispatch, useAppSelector } from '../../store';
import { AuthCard } from './AuthCard';
import { OAuthButtons } from './OAuthButtons';
import { completeLogin } from './complete-login';
import { useField } from './use-field';
import { PasskeyButton } from './PasskeyButton';
import { TWO_FACTOR, TwoFactorDialog } from './TwoFactorDialog';

type Values = z.infer<typeof LoginForm>;

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const site = useAppSelector((s) => s.siteInfo);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // `?2fa=1`: a provider sign-in (OAuth callback, WeChat) is waiting for the second factor.
  const [params] = useSearchParams();
  const [twoFactor, setTwoFactor] = useState(params.get('2fa') === '1');
  const mode = useAppSelector((s) => s.customization.theme);
  const [turnstile, setTurnstile] = useState('');
  const { register, handleSubmit, formState, setError } = useForm<Values>({ resolver: zodResolver(LoginForm), defaultValues: { username: '', password: '' } });
  const field = useField(register, formState.errors);
  const hasOAuth = site.github_oauth || site.oidc_auth || site.lark_login || site.wechat_login || Boolean(site.linuxdo_oauth);

  const submit = handleSubmit(async (values) => {
    if (site.turnstile_check && !turnstile) return showInfo(t('turnstileWait'));
    try {
      const { message, data: user } = await apiWithMessage<User>('/api/user/login', { json: values, query: site.turnstile_check ? { turnstile } : undefined });
      if (message === TWO_FACTOR) return setTwoFactor(true);
      completeLogin(dispatch, user);
      showSuccess(t('common.loginOk', { ns: 'common' }));
      navigate('/panel');
    } catch (e) {
      // A refused field is shown at the field; any other failure once, as the spec's toast for its class.
      const atFields = serverFieldErrors(e, ['username', 'password']);
      for (const [k, message] of Object.entries(atFields)) setError(k as keyof Values, { type: 'server', message });
      if (Object.keys(atFields).length) notifyServerMessage(e);
      else showError(e);
    }
  });

  return (
    <AuthCard
      title={t('loginTitle')}
      subtitle={t('loginSubtitle')}
      footer={
        <>
          {t('noAccount')}{' '}
          <Link component={RouterLink} to="/register" underline="hover">
            {t('signUp')}
          </Link>
        </>
      }
    >
      {site.setup_required && (
        <Alert severity="info" sx={{ mb: 2.5 }} data-testid="setup-pending">
          {t('setupPending')}
        </Alert>
      )}
      {hasOAuth && (
        <>
          <OAuthButtons onLoggedIn={() => navigate('/panel')} />
          <Divider sx={{ my: 3, color: 'text.secondary', fontSize: 13 }}>{t('or')}</Divider>
        </>
      )}
      <Stack component="form" spacing={2.2} noValidate onSubmit={(e) => void submit(e)}>
        <TextField {...field('username')} label={t('usernameOrEmail')} autoComplete="username" autoFocus fullWidth slotProps={{ htmlInput: { maxLength: 255 } }} />
        <PasswordField {...field('password')} label={t('password')} autoComplete="current-password" fullWidth slotProps={{ htmlInput: { maxLength: 255 } }} />
        <Link component={RouterLink} to="/reset" underline="hover" sx={{ alignSelf: 'flex-end', fontSize: 14 }}>
          {t('forgotPassword')}
        </Link>
        {site.turnstile_check && site.turnstile_site_key && <Turnstile siteKey={site.turnstile_site_key} theme={mode} onToken={setTurnstile} />}
        <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
          {t('loginButton')}
        </Button>
        <PasskeyButton onLoggedIn={() => navigate('/panel')} />
      </Stack>
      <TwoFactorDialog open={twoFactor} onClose={() => setTwoFactor(false)} onLoggedIn={() => navigate('/panel')} />
    </AuthCard>
  );
}
