import { useState } from 'react';
import { Box, Button, Card, InputAdornment, OutlinedInput, Stack, Typography } from '@mui/material';
import Redeem from '@mui/icons-material/RedeemOutlined';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api';
import { copyText, showError } from '../../../lib/toast';

/** Invite link: the first click fetches the code, shows and copies the link; later clicks copy it. */
export default function InviteCard() {
  const { t } = useTranslation('dashboard');
  const [link, setLink] = useState('');
  const [busy, setBusy] = useState(false);
  const click = async () => {
    if (link) return void copyText(link, t('inviteLink'));
    setBusy(true);
    try {
      const code = await api<string>('/api/user/aff');
      const url = `${window.location.origin}/register?aff=${encodeURIComponent(code)}`;
      setLink(url);
      await copyText(url, t('inviteLink'));
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card sx={{ p: 2.5 }} data-testid="invite-card">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Box sx={{ width: 48, height: 48, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: 'warning.main', color: 'warning.contrastText', flexShrink: 0 }}>
          <Redeem />
        </Box>
        <Box>
          <Typography variant="h6">{t('inviteTitle')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('inviteBody')}
          </Typography>
        </Box>
      </Stack>
      <OutlinedInput
        fullWidth
        size="small"
        readOnly
        value={link}
        placeholder={t('invitePlaceholder')}
        inputProps={{ 'aria-label': t('inviteLink'), 'data-testid': 'invite-link' }}
        endAdornment={
          <InputAdornment position="end">
            <Button size="small" variant="contained" disabled={busy} onClick={() => void click()}>
              {link ? t('copy') : t('generate')}
            </Button>
          </InputAdornment>
        }
      />
    </Card>
  );
}
