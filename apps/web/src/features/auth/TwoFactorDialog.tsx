import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { User } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showSuccess } from '../../lib/toast';
import { CodeDialog } from '../../components/CodeDialog';
import { useAppDispatch } from '../../store';
import { completeLogin } from './complete-login';

/** The server answers `message: "2fa"` when a sign-in still needs the authenticator (or a recovery) code. */
export const TWO_FACTOR = '2fa';

/** Second step of a sign-in for an account with two-factor: the six-digit code or a recovery code. */
export function TwoFactorDialog({ open, onClose, onLoggedIn }: { open: boolean; onClose: () => void; onLoggedIn: () => void }) {
  const { t } = useTranslation('auth');
  const dispatch = useAppDispatch();
  const submit = async (code: string) => {
    const user = await api<User>('/api/user/login/2fa', { json: { code } });
    completeLogin(dispatch, user);
    showSuccess(t('common.loginOk', { ns: 'common' }));
    onLoggedIn();
  };
  return (
    <CodeDialog open={open} onClose={onClose} title={t('twoFactorTitle')} codeLabel={t('twoFactorCode')} onSubmit={submit} minLength={6} autoComplete="one-time-code" codeTestId="two-factor-code">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('twoFactorHint')}
      </Typography>
    </CodeDialog>
  );
}
