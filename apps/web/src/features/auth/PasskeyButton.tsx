import { useState } from 'react';
import { Button } from '@mui/material';
import Fingerprint from '@mui/icons-material/Fingerprint';
import { useTranslation } from 'react-i18next';
import { browserSupportsWebAuthn, startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { User } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { useAppDispatch } from '../../store';
import { completeLogin } from './complete-login';

/** Username-less sign-in with a passkey (discoverable credential); hidden where the browser has no WebAuthn. */
export function PasskeyButton({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t } = useTranslation('auth');
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  if (!browserSupportsWebAuthn()) return null;
  const signIn = async () => {
    setBusy(true);
    try {
      const begin = await api<{ publicKey: PublicKeyCredentialRequestOptionsJSON }>('/api/webauthn/login/begin', { json: { username: '' } });
      const assertion = await startAuthentication({ optionsJSON: begin.publicKey });
      const user = await api<User>('/api/webauthn/login/finish', { json: assertion });
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
    <Button variant="outlined" color="inherit" size="large" startIcon={<Fingerprint />} disabled={busy} onClick={() => void signIn()} sx={{ borderColor: 'divider' }}>
      {t('withPasskey')}
    </Button>
  );
}
