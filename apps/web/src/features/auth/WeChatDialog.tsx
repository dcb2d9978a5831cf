import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { User } from '@one-hub/contract';
import { apiWithMessage } from '../../lib/api';
import { useNavigate } from 'react-router-dom';
import { TWO_FACTOR } from './TwoFactorDialog';
import { readString, STORAGE } from '../../lib/storage';
import { showSuccess } from '../../lib/toast';
import { CodeDialog } from '../../components/CodeDialog';
import { useAppDispatch, useAppSelector } from '../../store';
import { completeLogin } from './complete-login';
import { withAff } from '../../lib/oauth-urls';

/** WeChat sign-in: scan the QR code, send the code the official account replies with (valid 3 minutes). */
export function WeChatDialog({ open, onClose, onLoggedIn }: { open: boolean; onClose: () => void; onLoggedIn: () => void }) {
  const { t } = useTranslation('auth');
  const qrcode = useAppSelector((s) => s.siteInfo.wechat_qrcode);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const submit = async (code: string) => {
    const { message, data: user } = await apiWithMessage<User>('/api/oauth/wechat', { query: withAff({ code }, readString(STORAGE.aff)) });
    onClose();
    if (message === TWO_FACTOR) return navigate('/login?2fa=1');
    completeLogin(dispatch, user);
    showSuccess(t('common.loginOk', { ns: 'common' }));
    onLoggedIn();
  };
  return (
    <CodeDialog open={open} onClose={onClose} title={t('wechatTitle')} codeLabel={t('verificationCode')} onSubmit={submit} minLength={1}>
      {qrcode && <Box component="img" src={qrcode} alt="WeChat QR" sx={{ display: 'block', mx: 'auto', maxWidth: 300, width: '100%', mb: 2 }} />}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('wechatHint')}
      </Typography>
    </CodeDialog>
  );
}
