import type { ReactNode } from 'react';
import { Box, Card, Grid, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AnalyticsTotals } from '@one-hub/contract';
import { useFormatQuota } from '../../../components/data';
import { api } from '../../../lib/api';
import { totalsCards } from '../analytics-data';

function DataCard({ title, value, lines, loading, testId }: { title: string; value: ReactNode; lines: string[]; loading: boolean; testId: string }) {
  return (
    <Card sx={{ p: 2.5, height: 160, display: 'flex', flexDirection: 'column' }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {title}
      </Typography>
      {loading ? (
        <Skeleton variant="rounded" sx={{ mt: 1, flex: 1 }} />
      ) : (
        <>
          <Typography variant="h4" sx={{ fontWeight: 600, my: 1 }} data-testid={`${testId}-value`}>
            {value}
          </Typography>
          <Box sx={{ mt: 'auto' }}>
            {lines.map((l) => (
              <Typography key={l} variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'anywhere' }}>
                {l}
              </Typography>
            ))}
          </Box>
        </>
      )}
    </Card>
  );
}

/** Spending, users, channels and recharges over the whole site. */
export default function TotalsCards() {
  const { t } = useTranslation('analytics');
  const format = useFormatQuota();
  const q = useQuery({ queryKey: ['analytics-totals'], queryFn: () => api<AnalyticsTotals>('/api/analytics/statistics') });
  const c = q.data ? totalsCards(q.data) : null;
  const loading = q.isLoading || !c;
  if (q.isError) return <Typography color="error">{t('loadFailed')}</Typography>;
  return (
    <Grid container spacing={2.5}>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <DataCard testId="card-spending" loading={loading} title={t('totalSpending')} value={c && format(c.usedQuota)} lines={c ? [t('totalBalance', { value: format(c.balanceQuota) })] : []} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <DataCard
          testId="card-users"
          loading={loading}
          title={t('totalUsers')}
          value={c?.users}
          lines={c ? [t('directUsers', { n: c.directUsers }), t('invitedUsers', { n: c.invitedUsers })] : []}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <DataCard
          testId="card-channels"
          loading={loading}
          title={t('channels')}
          value={c?.channels}
          lines={c ? [t('channelStates', { active: c.activeChannels, disabled: c.disabledChannels, testDisabled: c.testDisabledChannels })] : []}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <DataCard
          testId="card-recharge"
          loading={loading}
          title={t('recharge')}
          value={c && format(c.redeemedQuota + c.orderQuota)}
          lines={
            c
              ? [
                  t('rechargeSplit', { redeemed: format(c.redeemedQuota), orders: format(c.orderQuota) }),
                  ...(c.orderMoney.length ? [c.orderMoney.map((m) => `${m.money.toFixed(2)} ${m.currency}`).join(' · ')] : []),
                ]
              : []
          }
        />
      </Grid>
    </Grid>
  );
}
