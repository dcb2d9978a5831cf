import { useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api';
import { showError, showSuccess } from '../../../lib/toast';
import { useAppSelector } from '../../../store';

/** WeChat binding: scan the official account's QR code and send the code it replies with. */
export default function WeChatBindDialog({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { t } = useTranslation('profile');
  const qrcode = useAppSelector((s) => s.siteInfo.wechat_qrcode);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const bind = async () => {
    if (!code.trim()) return showError(new Error(t('codeRequired')));
    setBusy(true);
    try {
      await api('/api/oauth/wechat/bind', { query: { code: code.trim() } });
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
      <DialogTitle>{t('bindWechat')}</DialogTitle>
      <DialogContent>
        {qrcode && <Box component="img" src={qrcode} alt="WeChat QR" sx={{ display: 'block', mx: 'auto', maxWidth: 260, width: '100%', mb: 2 }} />}
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('wechatHint')}
        </Typography>
        <TextField fullWidth label={t('code')} value={code} onChange={(e) => setCode(e.target.value)} />
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button variant="contained" onClick={() => void bind()} disabled={busy}>
          {t('bind')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
