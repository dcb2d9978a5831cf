import { useState } from 'react';
import { Alert, AlertTitle, Box, Button, Card, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api';
import { copyText, showError } from '../../../lib/toast';

/**
 * The system-management token (not for the model API): generated or reset, shown once and copied.
 * No other answer carries it, and it ends with the sessions (logout, password change).
 */
export default function AccessTokenTab() {
  const { t } = useTranslation('profile');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const generate = async () => {
    setBusy(true);
    try {
      const value = await api<string>('/api/user/token');
      setToken(value);
      await copyText(value, t('accessToken'));
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card sx={{ p: 3 }}>
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('accessTokenNotice')}
      </Alert>
      <Button variant="contained" onClick={() => void generate()} disabled={busy} data-testid="access-token-generate">
        {token ? t('resetToken') : t('generateToken')}
      </Button>
      {token && (
        <Alert severity="error" sx={{ mt: 2 }}>
          <AlertTitle>{t('keepSafe')}</AlertTitle>
          <Box component="code" data-testid="access-token" sx={{ wordBreak: 'break-all', userSelect: 'all' }}>
            {token}
          </Box>
          <Typography variant="caption" sx={{ display: 'block', mt: 0.5 }}>
            {t('copied')}
          </Typography>
        </Alert>
      )}
    </Card>
  );
}
