import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Link, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { EmailForm } from '@one-hub/contract';
import type { z } from 'zod';
import Turnstile from '../../components/Turnstile';
import { api } from '../../lib/api';
import { showError, showInfo, showSuccess } from '../../lib/toast';
import { useAppSelector } from '../../store';
import { AuthCard } from './AuthCard';
import { useCountdown } from '../../lib/use-countdown';
import { useField } from './use-field';

export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const site = useAppSelector((s) => s.siteInfo);
  const mode = useAppSelector((s) => s.customization.theme);
  const [turnstile, setTurnstile] = useState('');
  const [sent, setSent] = useState(false);
  const countdown = useCountdown(30);
  const { register, handleSubmit, formState } = useForm<z.infer<typeof EmailForm>>({ resolver: zodResolver(EmailForm), defaultValues: { email: '' } });
  const field = useField(register, formState.errors);

  const submit = handleSubmit(async ({ email }) => {
    if (site.turnstile_check && !turnstile) return showInfo(t('turnstileWait'));
    countdown.start();
    try {
      await api('/api/reset_password', { query: { email, turnstile } });
      showSuccess(t('resetMailSent'));
      setSent(true);
    } catch (e) {
      countdown.stop();
      showError(e);
    }
  });

  return (
    <AuthCard
      title={t('resetTitle')}
      subtitle={sent ? undefined : t('resetSubtitle')}
      footer={
        <Link component={RouterLink} to="/login" underline="hover">
          {t('backToLogin')}
        </Link>
      }
    >
      {sent ? (
        <Alert severity="success" sx={{ fontSize: 17, py: 2 }} data-testid="reset-sent">
          {t('resetMailSentLong')}
        </Alert>
      ) : (
        <Stack component="form" spacing={2.2} noValidate onSubmit={(e) => void submit(e)}>
          <TextField {...field('email')} label={t('email')} type="email" autoComplete="email" fullWidth autoFocus />
          {site.turnstile_check && site.turnstile_site_key && <Turnstile siteKey={site.turnstile_site_key} theme={mode} onToken={setTurnstile} />}
          <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting || countdown.left > 0}>
            {countdown.left > 0 ? t('retryIn', { n: countdown.left }) : t('sendResetMail')}
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
