import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { User } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { useAppDispatch } from '../../store';
import { completeLogin } from './complete-login';

/** The server answers `message: "2fa"` when a sign-in still needs the authenticator (or a recovery) code. */
export const TWO_FACTOR = '2fa';

/** Second step of a sign-in for an account with two-factor: the six-digit code or a recovery code. */
export function TwoFactorDialog({ open, onClose, onLoggedIn }: { open: boolean; onClose: () => void; onLoggedIn: () => void }) {
  const { t } = useTranslation('auth');
  const dispatch = useAppDispatch();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      const user = await api<User>('/api/user/login/2fa', { json: { code: code.trim() } });
      completeLogin(dispatch, user);
      showSuccess(t('common.loginOk', { ns: 'common' }));
      onLoggedIn();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('twoFactorTitle')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('twoFactorHint')}
        </Typography>
        <TextField
          label={t('twoFactorCode')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && code.trim().length >= 6 && void submit()}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { maxLength: 16, 'data-testid': 'two-factor-code' } }}
          fullWidth
          autoFocus
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.cancel', { ns: 'common' })}</Button>
        <Button variant="contained" disabled={busy || code.trim().length < 6} onClick={() => void submit()}>
          {t('common.submit', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
