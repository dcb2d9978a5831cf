import { useState } from 'react';
import { Button, Typography } from '@mui/material';
import Fingerprint from '@mui/icons-material/Fingerprint';
import { useTranslation } from 'react-i18next';
import { browserSupportsWebAuthn, startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { StepUpFactors } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError } from '../../lib/toast';
import { CodeDialog } from '../CodeDialog';

interface Props {
  /** The factors the server named; null while closed. */
  factors: StepUpFactors | null;
  onClose: () => void;
  onConfirmed: () => void;
}

/** Confirms the signed-in administrator again (authenticator or recovery code, or a passkey) before secrets are shown. */
export function StepUpDialog({ factors, onClose, onConfirmed }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const withPasskey = Boolean(factors?.passkey) && browserSupportsWebAuthn();
  const confirmByCode = async (code: string) => {
    await api('/api/user/step_up', { json: { code } });
    onConfirmed();
  };
  const confirmByPasskey = async () => {
    setBusy(true);
    try {
      const options = await api<{ publicKey: PublicKeyCredentialRequestOptionsJSON }>('/api/user/step_up/passkey', { method: 'POST' });
      const passkey = await startAuthentication({ optionsJSON: options.publicKey });
      await api('/api/user/step_up', { json: { passkey } });
      onConfirmed();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <CodeDialog
      open={factors !== null}
      onClose={onClose}
      title={t('stepUp.title')}
      codeLabel={t('stepUp.code')}
      onSubmit={confirmByCode}
      codeHidden={!factors?.two_factor}
      minLength={6}
      busy={busy}
      autoComplete="one-time-code"
      codeTestId="step-up-code"
      submitTestId="step-up-submit"
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {factors?.two_factor ? t('stepUp.hintCode') : t('stepUp.hintPasskey')}
      </Typography>
      {withPasskey && (
        <Button variant="outlined" startIcon={<Fingerprint />} disabled={busy} onClick={() => void confirmByPasskey()} fullWidth sx={{ my: 1 }} data-testid="step-up-passkey">
          {t('stepUp.passkey')}
        </Button>
      )}
    </CodeDialog>
  );
}
