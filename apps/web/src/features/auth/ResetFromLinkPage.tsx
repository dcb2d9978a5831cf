import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert, AlertTitle, Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { copyText, showError } from '../../lib/toast';
import { AuthCard } from './AuthCard';

/** /user/reset?email=…&token=…: one click resets the password; the new one is shown once and copied. */
export default function ResetFromLinkPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const reset = async () => {
    setBusy(true);
    try {
      const pw = await api<string>('/api/user/reset', { json: { email, token } });
      setPassword(pw);
      await copyText(pw, t('newPassword'));
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={t('resetTitle')} subtitle={email && token && !password ? email : undefined}>
      {!email || !token ? (
        <Typography variant="h6" align="center" color="error" data-testid="invalid-link" sx={{ py: 3 }}>
          {t('invalidLink')}
        </Typography>
      ) : password ? (
        <Alert severity="error" icon={false} data-testid="new-password" sx={{ mt: 2 }}>
          <AlertTitle>{t('newPassword')}</AlertTitle>
          <Box component="code" sx={{ fontSize: 20, fontWeight: 700, userSelect: 'all' }}>
            {password}
          </Box>
          <Typography variant="body2" sx={{ mt: 1 }}>
            {t('changeAfterLogin')}
          </Typography>
        </Alert>
      ) : (
        <Button fullWidth variant="contained" size="large" disabled={busy} onClick={() => void reset()}>
          {t('clickToReset')}
        </Button>
      )}
    </AuthCard>
  );
}
