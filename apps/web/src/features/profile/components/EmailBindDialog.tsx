import { useState } from 'react';
import { Button, InputAdornment, TextField, useTheme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { EmailQuery } from '@one-hub/contract';
import Turnstile from '../../../components/Turnstile';
import { CodeDialog } from '../../../components/CodeDialog';
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
  const [turnstile, setTurnstile] = useState('');
  const [turnstileKey, setTurnstileKey] = useState(0);
  const [sending, setSending] = useState(false);
  const countdown = useCountdown(30);
  const needTurnstile = site.turnstile_check && Boolean(site.turnstile_site_key);

  const sendCode = async () => {
    const parsed = EmailQuery.safeParse({ email: email.trim() });
    if (!parsed.success) return showError(new Error(t('badEmail')));
    if (needTurnstile && !turnstile) return showInfo(t('turnstileWait'));
    setSending(true);
    try {
      await api('/api/verification', { query: { email: parsed.data.email, turnstile } });
      countdown.start();
      showSuccess(t('codeSent'));
    } catch (e) {
      showError(e);
    } finally {
      setSending(false);
      // a Turnstile token works once: show a fresh challenge
      setTurnstile('');
      setTurnstileKey((k) => k + 1);
    }
  };
  const bind = async (code: string) => {
    if (!EmailQuery.safeParse({ email: email.trim() }).success) throw new Error(t('badEmail'));
    if (!code) throw new Error(t('codeRequired'));
    await api('/api/oauth/email/bind', { query: { email: email.trim(), code } });
    showSuccess(t('bound'));
    onBound();
    onClose();
  };
  return (
    <CodeDialog
      open={open}
      onClose={onClose}
      title={t('bindEmail')}
      codeLabel={t('code')}
      submitLabel={t('bind')}
      onSubmit={bind}
      busy={sending}
      codeTestId="bind-code"
      submitTestId="bind-email-submit"
      footer={needTurnstile && <Turnstile key={turnstileKey} siteKey={site.turnstile_site_key} theme={mode} onToken={setTurnstile} />}
    >
      <TextField
        label={t('email')}
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        fullWidth
        sx={{ mt: 1, mb: 1 }}
        slotProps={{
          htmlInput: { 'data-testid': 'bind-email' },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Button size="small" onClick={() => void sendCode()} disabled={sending || countdown.left > 0}>
                  {countdown.left > 0 ? t('resendIn', { s: countdown.left }) : t('getCode')}
                </Button>
              </InputAdornment>
            ),
          },
        }}
      />
    </CodeDialog>
  );
}
