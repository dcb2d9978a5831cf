import { useState } from 'react';
import { Button, InputAdornment, OutlinedInput, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { User } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { showError, showSuccess } from '../../../lib/toast';
import { useFormatQuota } from '../../../components/data';
import { useAppSelector } from '../../../store';

/** Redemption-code top-up (console-screens §3.8): the balance moves by the code's quota at once. */
export default function RedeemCode() {
  const { t } = useTranslation('topup');
  const topUpLink = useAppSelector((s) => s.siteInfo.top_up_link);
  const format = useFormatQuota();
  const queryClient = useQueryClient();
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);

  const redeem = async () => {
    if (!key.trim()) return showError(t('codeRequired'));
    setBusy(true);
    try {
      const added = await api<number>('/api/user/topup', { json: { key: key.trim() } });
      showSuccess(t('redeemed', { quota: format(added) }));
      queryClient.setQueryData<User>(['user-self'], (u) => (u ? { ...u, quota: u.quota + added } : u));
      void queryClient.invalidateQueries({ queryKey: ['user-self'] });
      setKey('');
    } catch (e) {
      showError(e);
    }
    setBusy(false);
  };
  const openLink = () => (topUpLink ? void window.open(topUpLink, '_blank', 'noopener') : showError(t('noTopUpLink')));

  return (
    <Stack spacing={1.5} data-testid="redeem-code">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('redeemTitle')}
      </Typography>
      <OutlinedInput
        fullWidth
        placeholder={t('codePlaceholder')}
        value={key}
        onChange={(e) => setKey(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && void redeem()}
        inputProps={{ 'aria-label': t('codePlaceholder'), 'data-testid': 'redeem-key' }}
        endAdornment={
          <InputAdornment position="end">
            <Button variant="contained" disabled={busy} onClick={() => void redeem()} data-testid="redeem-submit">
              {busy ? t('submitting') : t('exchange')}
            </Button>
          </InputAdornment>
        }
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary">
          {t('noCode')}
        </Typography>
        <Button size="small" onClick={openLink}>
          {t('getCode')}
        </Button>
      </Stack>
    </Stack>
  );
}
