import { useState } from 'react';
import { Alert, Button, Card, IconButton, List, ListItem, ListItemText, Skeleton, Stack, TextField, Typography } from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { browserSupportsWebAuthn, startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type { PasskeyCredential } from '@one-hub/contract';
import { ConfirmDialog } from '../../../components/data';
import { api } from '../../../lib/api';
import { showError, showSuccess } from '../../../lib/toast';
import { useStepUp } from '../../../components/step-up/use-step-up';

/** The user's passkeys: add one with this device's authenticator, list and remove them. */
export default function PasskeysCard() {
  const { t } = useTranslation('profile');
  const list = useQuery({ queryKey: ['passkeys'], queryFn: () => api<PasskeyCredential[] | null>('/api/webauthn/credentials') });
  const [alias, setAlias] = useState('');
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<PasskeyCredential | null>(null);
  const supported = browserSupportsWebAuthn();
  // Adding or removing a passkey asks for a fresh confirmation once the user has a factor.
  const stepUp = useStepUp();

  const add = async () => {
    setBusy(true);
    try {
      const begin = await stepUp.run(() =>
        api<{ publicKey: PublicKeyCredentialCreationOptionsJSON }>('/api/webauthn/registration/begin', { json: { alias: alias.trim() || undefined } }),
      );
      const attestation = await startRegistration({ optionsJSON: begin.publicKey });
      await api('/api/webauthn/registration/finish', { json: attestation });
      setAlias('');
      showSuccess(t('passkeyAdded'));
      void list.refetch();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      await stepUp.run(() => api(`/api/webauthn/credentials/${removing.id}`, { method: 'DELETE' }));
      setRemoving(null);
      void list.refetch();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="outlined" sx={{ p: 2.5 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('passkeys')}
      </Typography>
      {list.isLoading && <Skeleton variant="rounded" height={48} />}
      {list.data === null && (
        <Typography variant="body2" color="text.secondary">
          {t('passkeysEmpty')}
        </Typography>
      )}
      {list.data && (
        <List dense disablePadding>
          {list.data.map((c) => (
            <ListItem
              key={c.id}
              disableGutters
              secondaryAction={
                <IconButton edge="end" aria-label={t('passkeyRemove')} onClick={() => setRemoving(c)}>
                  <DeleteOutline />
                </IconButton>
              }
            >
              <ListItemText primary={c.alias} secondary={new Date(c.created_time * 1000).toLocaleString()} />
            </ListItem>
          ))}
        </List>
      )}
      {supported ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 1.5 }}>
          <TextField size="small" label={t('passkeyName')} value={alias} onChange={(e) => setAlias(e.target.value)} slotProps={{ htmlInput: { maxLength: 64 } }} />
          <Button variant="outlined" disabled={busy} onClick={() => void add()}>
            {t('passkeyAdd')}
          </Button>
        </Stack>
      ) : (
        <Alert severity="info" sx={{ mt: 1.5 }}>
          {t('passkeyUnsupported')}
        </Alert>
      )}
      {stepUp.dialog}
      <ConfirmDialog open={removing !== null} title={t('passkeyRemove')} body={removing?.alias ?? ''} danger busy={busy} confirmText={t('passkeyRemove')} onConfirm={() => void remove()} onClose={() => setRemoving(null)} />
    </Card>
  );
}
