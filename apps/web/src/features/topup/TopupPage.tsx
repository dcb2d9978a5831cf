import { Alert, Box, Card, CircularProgress, Divider, Grid, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PublicGateway, User } from '@one-hub/contract';
import { api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { PageHeader, useFormatQuota } from '../../components/data';
import InviteCard from '../dashboard/components/InviteCard';
import OnlineTopup from './components/OnlineTopup';
import RedeemCode from './components/RedeemCode';

/** Top-up (console-screens §3.8): balance, online top-up, redemption code, invitation. */
export default function TopupPage() {
  const { t } = useTranslation('topup');
  const format = useFormatQuota();
  const self = useQuery({ queryKey: ['user-self'], queryFn: () => api<User>('/api/user/self') });
  const gateways = useQuery({ queryKey: ['user-payment'], queryFn: () => api<PublicGateway[]>('/api/user/payment'), retry: false });
  const user = self.data;

  return (
    <Box data-testid="topup-page">
      <PageHeader subtitle={t('subtitle')} />
      <Alert severity="warning" sx={{ mb: 2 }}>
        {t('logHint')}
      </Alert>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6, lg: 8 }}>
          <Card sx={{ p: { xs: 2, sm: 3 } }}>
            <Stack spacing={3}>
              <Box>
                <Typography variant="body2" color="text.secondary">
                  {t('currentQuota')}
                </Typography>
                <Typography variant="h4" sx={{ fontWeight: 600 }} data-testid="topup-balance">
                  {user ? format(user.quota) : self.isError ? '—' : <CircularProgress size={24} />}
                </Typography>
                {self.isError && <Alert severity="error">{describeError(self.error, t).text}</Alert>}
              </Box>
              {gateways.data && gateways.data.length > 0 && (
                <>
                  <Divider />
                  <OnlineTopup gateways={gateways.data} />
                </>
              )}
              <Divider />
              <RedeemCode />
            </Stack>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6, lg: 4 }}>
          <Stack spacing={2}>
            <InviteCard />
            {user && (
              <Card sx={{ p: 2.5 }} data-testid="invite-rewards">
                <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                  {t('rewardsTitle')}
                </Typography>
                <Stack direction="row" spacing={3}>
                  <Box>
                    <Typography variant="h5">{user.aff_count}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t('invited')}
                    </Typography>
                  </Box>
                  <Box>
                    <Typography variant="h5">{format(user.aff_history_quota)}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t('rewarded')}
                    </Typography>
                  </Box>
                </Stack>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
                  {t('rewardsHint')}
                </Typography>
              </Card>
            )}
          </Stack>
        </Grid>
      </Grid>
    </Box>
  );
}
