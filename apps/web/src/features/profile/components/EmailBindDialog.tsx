import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, InputAdornment, Stack, TextField, useTheme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { EmailQuery } from '@one-hub/contract';
import Turnstile from '../../../components/Turnstile';
import { api } from '../../../lib/api';
import { showError, showInfo, showSuccess } from '../../../lib/toast';
import { useCountdown } from '../../../lib/use-countdown';
import { useAppSelector } from '../../../store';

/** E-mail binding: a mailed code (30 s between sends, Turnstile when on), then the bind call. */
export default function EmailBindDialog({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { t } = useTranslation('profile');
  const site = useAppSelector((s) => s.siteInfo);
  const mode = useTheme().palette.mode;
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [turnstile, setTurnstile] = useState('');
  const [turnstileKey, setTurnstileKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const countdown = useCountdown(30);
  const needTurnstile = site.turnstile_check && Boolean(site.turnstile_site_key);

  const sendCode = async () => {
    const parsed = EmailQuery.safeParse({ email: email.trim() });
    if (!parsed.success) return showError(new Error(t('badEmail')));
    if (needTurnstile && !turnstile) return showInfo(t('turnstileWait'));
    setBusy(true);
    try {
      await api('/api/verification', { query: { email: parsed.data.email, turnstile } });
      countdown.start();
      showSuccess(t('codeSent'));
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
      // a Turnstile token works once: show a fresh challenge
      setTurnstile('');
      setTurnstileKey((k) => k + 1);
    }
  };
  const bind = async () => {
    if (!EmailQuery.safeParse({ email: email.trim() }).success) return showError(new Error(t('badEmail')));
    if (!code.trim()) return showError(new Error(t('codeRequired')));
    setBusy(true);
    try {
      await api('/api/oauth/email/bind', { query: { email: email.trim(), code: code.trim() } });
      showSuccess(t('bound'));
      onBound();
      onClose();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('bindEmail')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            slotProps={{
              htmlInput: { 'data-testid': 'bind-email' },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <Button size="small" onClick={() => void sendCode()} disabled={busy || countdown.left > 0}>
                      {countdown.left > 0 ? t('resendIn', { s: countdown.left }) : t('getCode')}
                    </Button>
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField label={t('code')} value={code} onChange={(e) => setCode(e.target.value)} slotProps={{ htmlInput: { 'data-testid': 'bind-code' } }} />
          {needTurnstile && <Turnstile key={turnstileKey} siteKey={site.turnstile_site_key} theme={mode} onToken={setTurnstile} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button variant="contained" onClick={() => void bind()} disabled={busy} data-testid="bind-email-submit">
          {t('bind')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
