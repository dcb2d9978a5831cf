import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, InputAdornment, Link, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { RegisterForm, RegisterWithEmailForm } from '@one-hub/contract';
import type { z } from 'zod';
import PasswordField from '../../components/PasswordField';
import Turnstile from '../../components/Turnstile';
import { api } from '../../lib/api';
import { notifyServerMessage } from '../../lib/error-handler';
import { serverFieldErrors } from '../../lib/form-errors';
import { readString, STORAGE, writeString } from '../../lib/storage';
import { showError, showInfo, showSuccess } from '../../lib/toast';
import { useAppSelector } from '../../store';
import { AuthCard } from './AuthCard';
import { StrengthBar } from './StrengthBar';
import { useCountdown } from '../../lib/use-countdown';
import { useField } from './use-field';

type Values = z.infer<typeof RegisterForm>;

export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const site = useAppSelector((s) => s.siteInfo);
  const mode = useAppSelector((s) => s.customization.theme);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [turnstile, setTurnstile] = useState('');
  const countdown = useCountdown(30);
  const schema = site.email_verification ? RegisterWithEmailForm : RegisterForm;
  const { register, handleSubmit, formState, watch, getValues, trigger, setError } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { username: '', password: '', password2: '', email: '', verification_code: '' },
  });
  const field = useField(register, formState.errors);

  useEffect(() => {
    const aff = params.get('aff');
    if (aff) writeString(STORAGE.aff, aff);
  }, [params]);

  const needTurnstile = () => {
    if (site.turnstile_check && !turnstile) {
      showInfo(t('turnstileWait'));
      return true;
    }
    return false;
  };

  const sendCode = async () => {
    if (!(await trigger('email')) || needTurnstile()) return;
    countdown.start();
    try {
      await api('/api/verification', { query: { email: getValues('email'), turnstile } });
      showSuccess(t('codeSent'));
    } catch (e) {
      countdown.stop();
      showError(e);
    }
  };

  const submit = handleSubmit(async (v) => {
    if (needTurnstile()) return;
    try {
      const aff_code = readString(STORAGE.aff) ?? '';
      await api(`/api/user/register`, {
        query: { turnstile },
        json: { username: v.username, password: v.password, email: v.email, verification_code: v.verification_code, aff_code },
      });
      showSuccess(t('registerOk'));
      navigate('/login');
    } catch (e) {
      // A refused field is shown at the field; any other failure once, as the spec's toast for its class
      // (console-spec §8), never also inline.
      const atFields = serverFieldErrors(e, ['username', 'password', 'email', 'verification_code']);
      for (const [k, message] of Object.entries(atFields)) setError(k as keyof Values, { type: 'server', message });
      if (Object.keys(atFields).length) notifyServerMessage(e);
      else showError(e);
    }
  });

  return (
    <AuthCard
      title={t('registerTitle')}
      subtitle={t('registerSubtitle')}
      footer={
        <Link component={RouterLink} to="/login" underline="hover">
          {t('haveAccount')}
        </Link>
      }
    >
      <Stack component="form" spacing={2.2} noValidate onSubmit={(e) => void submit(e)}>
        <TextField {...field('username')} label={t('username')} autoComplete="username" fullWidth slotProps={{ htmlInput: { maxLength: 255 } }} />
        <PasswordField {...field('password')} label={t('password')} autoComplete="new-password" fullWidth />
        <StrengthBar password={watch('password')} />
        <PasswordField {...field('password2')} label={t('confirmPassword')} autoComplete="new-password" fullWidth />
        {site.email_verification && (
          <>
            <TextField
              {...field('email')}
              label={t('email')}
              type="email"
              autoComplete="email"
              fullWidth
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <Button size="small" disabled={countdown.left > 0} onClick={() => void sendCode()}>
                        {countdown.left > 0 ? t('resend', { n: countdown.left }) : t('getCode')}
                      </Button>
                    </InputAdornment>
                  ),
                },
              }}
            />
            <TextField {...field('verification_code')} label={t('verificationCode')} fullWidth />
          </>
        )}
        {site.turnstile_check && site.turnstile_site_key && <Turnstile siteKey={site.turnstile_site_key} theme={mode} onToken={setTurnstile} />}
        <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
          {t('registerButton')}
        </Button>
      </Stack>
    </AuthCard>
  );
}
