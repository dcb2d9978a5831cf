import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api';
import { showSuccess } from '../../../lib/toast';
import { CodeDialog } from '../../../components/CodeDialog';
import { useAppSelector } from '../../../store';

/** WeChat binding: scan the official account's QR code and send the code it replies with. */
export default function WeChatBindDialog({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { t } = useTranslation('profile');
  const qrcode = useAppSelector((s) => s.siteInfo.wechat_qrcode);
  const bind = async (code: string) => {
    if (!code) throw new Error(t('codeRequired'));
    await api('/api/oauth/wechat/bind', { query: { code } });
    showSuccess(t('bound'));
    onBound();
    onClose();
  };
  return (
    <CodeDialog open={open} onClose={onClose} title={t('bindWechat')} codeLabel={t('code')} submitLabel={t('bind')} onSubmit={bind}>
      {qrcode && <Box component="img" src={qrcode} alt="WeChat QR" sx={{ display: 'block', mx: 'auto', maxWidth: 260, width: '100%', mb: 2 }} />}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('wechatHint')}
      </Typography>
    </CodeDialog>
  );
}
