import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, CircularProgress, Collapse, FormControlLabel, Link, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { CHANNEL_TYPE_BY_ID, CHANNEL_TYPES, SetupForm, type SetupResult } from '@one-hub/contract';
import type { z } from 'zod';
import PasswordField from '../../components/PasswordField';
import { api, ApiError } from '../../lib/api';
import { describeError, notifyServerMessage } from '../../lib/error-handler';
import { serverFieldErrors } from '../../lib/form-errors';
import { showSuccess, showWarning } from '../../lib/toast';
import { useAppDispatch, useAppSelector } from '../../store';
import { setSiteInfo } from '../../store/site-info';
import { AuthCard } from './AuthCard';
import { StrengthBar } from './StrengthBar';
import { useField } from './use-field';

type Values = z.infer<typeof SetupForm>;
type Check = { state: 'checking' } | { state: 'refused'; message: string } | { state: 'ready' };

/**
 * The guarded first run (issue 39 point 3): reachable only with the one-time link the server
 * printed in its log. Sets root's name and password, the system name and address, and optionally
 * a first channel that the server tests on the spot.
 */
export default function SetupPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const site = useAppSelector((s) => s.siteInfo);
  const [check, setCheck] = useState<Check>(token ? { state: 'checking' } : { state: 'refused', message: t('setupNoToken') });
  const [serverError, setServerError] = useState('');
  const { register, handleSubmit, formState, watch, control, setValue, getValues, reset, setError } = useForm<Values>({
    resolver: zodResolver(SetupForm),
    defaultValues: {
      username: 'root',
      password: '',
      password2: '',
      system_name: '',
      server_address: '',
      with_channel: false,
      channel_type: 1,
      channel_key: '',
      channel_base_url: '',
      channel_models: CHANNEL_TYPE_BY_ID.get(1)?.models.join(',') ?? '',
    },
  });
  const field = useField(register, formState.errors);
  const withChannel = watch('with_channel');

  useEffect(() => {
    if (!token) return;
    let live = true;
    api<{ system_name: string; server_address: string }>('/api/setup', { query: { token } })
      .then((current) => {
        if (!live) return;
        reset({ ...getValues(), system_name: current.system_name, server_address: current.server_address || window.location.origin });
        setCheck({ state: 'ready' });
      })
      .catch((e: unknown) => live && setCheck({ state: 'refused', message: e instanceof ApiError ? describeError(e, t).text : t('setupNoToken') }));
    return () => {
      live = false;
    };
  }, [token, t, reset, getValues]);

  const submit = handleSubmit(async (v) => {
    setServerError('');
    try {
      const result = await api<SetupResult>('/api/setup', {
        json: {
          token,
          username: v.username,
          password: v.password,
          system_name: v.system_name,
          server_address: v.server_address,
          ...(v.with_channel ? { channel: { type: v.channel_type, key: v.channel_key, base_url: v.channel_base_url, models: v.channel_models } } : {}),
        },
      });
      dispatch(setSiteInfo({ ...site, setup_required: false, system_name: v.system_name, server_address: v.server_address.replace(/\/+$/, '') }));
      showSuccess(t('setupDone', { username: result.username }));
      if (result.channel && !result.channel.success) showWarning(t('setupChannelFailed', { reason: result.channel.message }));
      else if (result.channel) showSuccess(t('setupChannelOk', { time: result.channel.time.toFixed(2) }));
      navigate('/login');
    } catch (e) {
      notifyServerMessage(e);
      const atFields = serverFieldErrors(e, ['username', 'password', 'system_name', 'server_address']);
      for (const [k, message] of Object.entries(atFields)) setError(k as keyof Values, { type: 'server', message });
      if (!Object.keys(atFields).length) setServerError(describeError(e, t).text);
    }
  });

  if (check.state !== 'ready') {
    return (
      <AuthCard title={t('setupTitle')} subtitle={check.state === 'checking' ? t('setupChecking') : undefined}>
        {check.state === 'checking' ? (
          <Stack sx={{ alignItems: 'center' }}>
            <CircularProgress size={28} />
          </Stack>
        ) : (
          <Stack spacing={2}>
            <Alert severity="error" data-testid="setup-refused">
              {check.message}
            </Alert>
            <Link component={RouterLink} to="/login" underline="hover" sx={{ textAlign: 'center' }}>
              {t('backToLogin')}
            </Link>
          </Stack>
        )}
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('setupTitle')} subtitle={t('setupSubtitle')}>
      <Stack component="form" spacing={2.2} noValidate onSubmit={(e) => void submit(e)}>
        <TextField {...field('username')} label={t('setupUsername')} autoComplete="username" fullWidth slotProps={{ htmlInput: { maxLength: 12 } }} />
        <PasswordField {...field('password')} label={t('password')} autoComplete="new-password" fullWidth />
        <StrengthBar password={watch('password')} />
        <PasswordField {...field('password2')} label={t('confirmPassword')} autoComplete="new-password" fullWidth />
        <TextField {...field('system_name')} label={t('setupSystemName')} fullWidth slotProps={{ htmlInput: { maxLength: 100 } }} />
        <TextField {...field('server_address')} label={t('setupServerAddress')} helperText={field('server_address').helperText ?? t('setupServerAddressHint')} fullWidth />
        <Controller
          name="with_channel"
          control={control}
          render={({ field: f }) => (
            <FormControlLabel control={<Checkbox checked={f.value} onChange={(e) => f.onChange(e.target.checked)} />} label={t('setupWithChannel')} />
          )}
        />
        <Collapse in={withChannel} unmountOnExit>
          <Stack spacing={2.2}>
            <Controller
              name="channel_type"
              control={control}
              render={({ field: f }) => (
                <TextField
                  select
                  label={t('setupChannelType')}
                  value={f.value}
                  onChange={(e) => {
                    const type = Number(e.target.value);
                    f.onChange(type);
                    setValue('channel_models', CHANNEL_TYPE_BY_ID.get(type)?.models.join(',') ?? '');
                  }}
                  fullWidth
                >
                  {CHANNEL_TYPES.map((c) => (
                    <MenuItem key={c.id} value={c.id}>
                      {c.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <PasswordField {...field('channel_key')} label={t('setupChannelKey')} autoComplete="off" fullWidth />
            <TextField {...field('channel_base_url')} label={t('setupChannelBaseUrl')} helperText={field('channel_base_url').helperText ?? t('setupChannelBaseUrlHint')} fullWidth />
            <TextField {...field('channel_models')} label={t('setupChannelModels')} helperText={field('channel_models').helperText ?? t('setupChannelModelsHint')} fullWidth />
          </Stack>
        </Collapse>
        {serverError && <Alert severity="error">{serverError}</Alert>}
        <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
          {formState.isSubmitting && withChannel ? t('setupTesting') : t('setupButton')}
        </Button>
      </Stack>
    </AuthCard>
  );
}
