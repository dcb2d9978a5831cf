import { useState } from 'react';
import { Alert, Button, Card, InputAdornment, MenuItem, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currencyToQuota, type QuotaAlert, type User } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { showError, showSuccess } from '../../../lib/toast';
import { useAppSelector } from '../../../store';

/** The user's own low-balance alert (GET/PUT /api/user/alert): a threshold and where to be told. */
export default function QuotaAlertTab({ user }: { user: User }) {
  const { t } = useTranslation('profile');
  const alert = useQuery({ queryKey: ['user-alert'], queryFn: () => api<QuotaAlert>('/api/user/alert') });
  if (alert.isLoading) return <Skeleton variant="rounded" height={240} />;
  if (!alert.data) return <Alert severity="error">{t('loadFailed')}</Alert>;
  return <AlertForm user={user} saved={alert.data} onSaved={() => void alert.refetch()} />;
}

function AlertForm({ user, saved, onSaved }: { user: User; saved: QuotaAlert; onSaved: () => void }) {
  const { t } = useTranslation('profile');
  const { display_in_currency: currency, quota_per_unit: perUnit } = useAppSelector((s) => s.siteInfo);
  const shown = (quota: number) => String(currency ? quota / perUnit : quota);
  const [threshold, setThreshold] = useState(shown(saved.threshold));
  const [channel, setChannel] = useState<QuotaAlert['channel']>(saved.channel);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const value = Number(threshold);
    if (!Number.isFinite(value) || value < 0) return showError(new Error(t('alertBadThreshold')));
    setBusy(true);
    try {
      const quota = currency ? currencyToQuota(value, perUnit) : Math.round(value);
      await api('/api/user/alert', { method: 'PUT', json: { threshold: quota, channel } });
      showSuccess(t('saved'));
      onSaved();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card sx={{ p: 3, maxWidth: 640 }}>
      <Typography variant="h6" sx={{ mb: 1 }}>
        {t('alertTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('alertHint')}
      </Typography>
      <Stack spacing={2} component="form" onSubmit={(e) => (e.preventDefault(), void submit())}>
        <TextField
          label={t('alertThreshold')}
          type="number"
          value={threshold}
          onChange={(e) => setThreshold(e.target.value)}
          slotProps={{
            htmlInput: { min: 0, step: 'any', 'data-testid': 'alert-threshold' },
            input: currency ? { startAdornment: <InputAdornment position="start">$</InputAdornment> } : undefined,
          }}
        />
        <TextField select label={t('alertChannel')} value={channel} onChange={(e) => setChannel(e.target.value as QuotaAlert['channel'])} slotProps={{ htmlInput: { 'data-testid': 'alert-channel' } }}>
          <MenuItem value="">{t('alertOff')}</MenuItem>
          <MenuItem value="email" disabled={!user.email}>
            {user.email ? t('alertEmail', { email: user.email }) : t('alertEmailMissing')}
          </MenuItem>
          <MenuItem value="telegram" disabled={!user.telegram_id}>
            {user.telegram_id ? t('alertTelegram') : t('alertTelegramMissing')}
          </MenuItem>
        </TextField>
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={busy} data-testid="alert-submit">
            {t('submit')}
          </Button>
        </Stack>
      </Stack>
    </Card>
  );
}
