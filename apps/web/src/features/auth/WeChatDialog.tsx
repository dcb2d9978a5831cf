import { useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { User } from '@one-hub/contract';
import { apiWithMessage } from '../../lib/api';
import { useNavigate } from 'react-router-dom';
import { TWO_FACTOR } from './TwoFactorDialog';
import { readString, STORAGE } from '../../lib/storage';
import { showError, showSuccess } from '../../lib/toast';
import { useAppDispatch, useAppSelector } from '../../store';
import { completeLogin } from './complete-login';
import { withAff } from '../../lib/oauth-urls';

/** WeChat sign-in: scan the QR code, send the code the official account replies with (valid 3 minutes). */
export function WeChatDialog({ open, onClose, onLoggedIn }: { open: boolean; onClose: () => void; onLoggedIn: () => void }) {
  const { t } = useTranslation('auth');
  const qrcode = useAppSelector((s) => s.siteInfo.wechat_qrcode);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!code.trim()) return;
    setBusy(true);
    try {
      const { message, data: user } = await apiWithMessage<User>('/api/oauth/wechat', { query: withAff({ code: code.trim() }, readString(STORAGE.aff)) });
      if (message === TWO_FACTOR) {
        onClose();
        return navigate('/login?2fa=1');
      }
      completeLogin(dispatch, user);
      showSuccess(t('common.loginOk', { ns: 'common' }));
      onClose();
      onLoggedIn();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('wechatTitle')}</DialogTitle>
      <DialogContent>
        {qrcode && <Box component="img" src={qrcode} alt="WeChat QR" sx={{ display: 'block', mx: 'auto', maxWidth: 300, width: '100%', mb: 2 }} />}
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('wechatHint')}
        </Typography>
        <TextField label={t('verificationCode')} value={code} onChange={(e) => setCode(e.target.value)} required fullWidth autoFocus />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.cancel', { ns: 'common' })}</Button>
        <Button variant="contained" disabled={busy || !code.trim()} onClick={() => void submit()}>
          {t('common.submit', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
