import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, Chip, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toDataURL } from 'qrcode';
import type { TwoFactorSetup, TwoFactorStatus } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { showError, showSuccess } from '../../../lib/toast';
import { useStepUp } from '../../../components/step-up/use-step-up';

/** TOTP two-factor: set up with a QR code and a first code, keep the recovery codes, or turn it off with a code. */
export default function TwoFactorCard() {
  const { t } = useTranslation('profile');
  const status = useQuery({ queryKey: ['two-factor'], queryFn: () => api<TwoFactorStatus>('/api/user/2fa') });
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [qr, setQr] = useState('');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  // Setting up two-factor asks a user who has a passkey to confirm with it first.
  const stepUp = useStepUp();

  useEffect(() => {
    if (setup) void toDataURL(setup.uri, { margin: 1, width: 200 }).then(setQr);
  }, [setup]);

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  const begin = () => run(async () => setSetup(await stepUp.run(() => api<TwoFactorSetup>('/api/user/2fa/setup', { json: {} }))));
  const enable = () =>
    run(async () => {
      setRecovery(await stepUp.run(() => api<string[]>('/api/user/2fa/enable', { json: { code: code.trim() } })));
      setSetup(null);
      setCode('');
      showSuccess(t('twoFactorOn'));
      void status.refetch();
    });
  const disable = () =>
    run(async () => {
      await api('/api/user/2fa/disable', { json: { code: code.trim() } });
      setCode('');
      showSuccess(t('twoFactorOff'));
      void status.refetch();
    });

  const codeField = (
    <TextField size="small" label={t('twoFactorCode')} value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" slotProps={{ htmlInput: { maxLength: 16 } }} />
  );
  return (
    <Card variant="outlined" sx={{ p: 2.5 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
          {t('twoFactor')}
        </Typography>
        {status.data && <Chip size="small" color={status.data.enabled ? 'success' : 'default'} label={status.data.enabled ? t('enabled') : t('disabled')} />}
      </Stack>
      {stepUp.dialog}
      {status.isLoading && <Skeleton variant="rounded" height={60} />}
      {recovery && (
        <Alert severity="warning" sx={{ mb: 2 }} onClose={() => setRecovery(null)}>
          {t('recoveryHint')}
          <Box component="pre" sx={{ fontFamily: 'monospace', m: 0, mt: 1 }} data-testid="recovery-codes">
            {recovery.join('\n')}
          </Box>
        </Alert>
      )}
      {status.data?.enabled ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {t('recoveryLeft', { n: status.data.recovery_codes_left })}
          </Typography>
          {codeField}
          <Button color="error" variant="outlined" disabled={busy || code.trim().length < 6} onClick={() => void disable()}>
            {t('twoFactorDisable')}
          </Button>
        </Stack>
      ) : setup ? (
        <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Typography variant="body2" color="text.secondary">
            {t('twoFactorScan')}
          </Typography>
          {qr ? <Box component="img" src={qr} alt="otpauth QR" sx={{ width: 200, height: 200, bgcolor: '#fff', borderRadius: 1 }} /> : <Skeleton variant="rounded" width={200} height={200} />}
          <Typography variant="caption" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {setup.secret}
          </Typography>
          <Stack direction="row" spacing={1.5}>
            {codeField}
            <Button variant="contained" disabled={busy || code.trim().length !== 6} onClick={() => void enable()}>
              {t('twoFactorEnable')}
            </Button>
          </Stack>
        </Stack>
      ) : (
        status.data && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
              {t('twoFactorIntro')}
            </Typography>
            <Button variant="outlined" disabled={busy} onClick={() => void begin()}>
              {t('twoFactorSetup')}
            </Button>
          </Stack>
        )
      )}
    </Card>
  );
}
