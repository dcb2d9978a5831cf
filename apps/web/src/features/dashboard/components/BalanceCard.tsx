import { Box, Card, Skeleton, Stack, Typography } from '@mui/material';
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWalletOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatQuota, type User } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { useAppSelector } from '../../../store';

/** Balance, spending and request count of the signed-in user, read fresh on each visit. */
export default function BalanceCard() {
  const { t } = useTranslation('dashboard');
  const site = useAppSelector((s) => s.siteInfo);
  const self = useQuery({ queryKey: ['user-self'], queryFn: () => api<User>('/api/user/self') });
  const fmt = (q: number) => formatQuota(q, { quotaPerUnit: site.quota_per_unit, displayInCurrency: site.display_in_currency });
  const figures = self.data
    ? [
        { id: 'balance', label: t('balance'), value: fmt(self.data.quota) },
        { id: 'used', label: t('used'), value: fmt(self.data.used_quota) },
        { id: 'requests', label: t('requestCount'), value: String(self.data.request_count) },
      ]
    : [];
  return (
    <Card sx={{ p: 2.5, color: 'primary.contrastText', background: (th) => `linear-gradient(135deg, ${th.palette.primary.dark}, ${th.palette.primary.main})` }} data-testid="balance-card">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5, opacity: 0.9 }}>
        <AccountBalanceWallet fontSize="small" />
        <Typography variant="subtitle2">{t('account')}</Typography>
      </Stack>
      {self.isLoading ? (
        <Skeleton variant="rounded" height={56} sx={{ bgcolor: 'rgba(255,255,255,0.2)' }} />
      ) : self.isError ? (
        <Typography>{t('loadFailed')}</Typography>
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 1 }}>
          {figures.map((f) => (
            <Box key={f.id} sx={{ minWidth: 0 }}>
              <Typography variant="caption" sx={{ opacity: 0.8 }}>
                {f.label}
              </Typography>
              <Typography variant="h6" noWrap data-testid={`account-${f.id}`} sx={{ fontWeight: 600 }}>
                {f.value}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Card>
  );
}
