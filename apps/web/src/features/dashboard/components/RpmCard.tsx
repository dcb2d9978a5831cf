import { Box, Card, IconButton, LinearProgress, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DashboardRate } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { rpmColour } from '../dashboard-data';

/** Requests this minute against the group's allowance (and tokens against the user's TPM limit, if set); refreshed only on demand. */
export default function RpmCard() {
  const { t } = useTranslation('dashboard');
  const rate = useQuery({ queryKey: ['dashboard-rate'], queryFn: () => api<DashboardRate>('/api/user/dashboard/rate') });
  const usage = Math.min(100, rate.data?.usageRpmRate ?? 0);
  return (
    <Card data-testid="rpm-card" sx={{ p: 2.5, height: '100%' }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          {t('rpm')}
        </Typography>
        <Tooltip title={t('refresh')}>
          <IconButton size="small" aria-label={t('refresh')} onClick={() => void rate.refetch()}>
            <Refresh
              fontSize="small"
              sx={{ animation: rate.isFetching ? 'rpm-spin 1s linear infinite' : 'none', '@keyframes rpm-spin': { to: { transform: 'rotate(360deg)' } } }}
            />
          </IconButton>
        </Tooltip>
      </Stack>
      {rate.isLoading ? (
        <Skeleton variant="text" width="50%" sx={{ fontSize: 32 }} />
      ) : rate.isError ? (
        <Typography color="error" sx={{ mt: 1 }}>
          {t('loadFailed')}
        </Typography>
      ) : (
        <Typography variant="h4" sx={{ fontWeight: 600, mt: 0.5 }} data-testid="rpm-value">
          {rate.data?.rpm ?? 0} RPM
        </Typography>
      )}
      {!rate.isError && (
        <Box sx={{ mt: 3 }}>
          <LinearProgress variant="buffer" value={usage} valueBuffer={100} color={rpmColour(usage)} sx={{ height: 8, borderRadius: 4 }} />
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
            {t('usagePercent', { percent: usage.toFixed(0) })}
            {rate.data?.maxRPM ? ` · ${t('limit', { max: rate.data.maxRPM })}` : ''}
          </Typography>
          {rate.data?.maxTPM ? (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }} data-testid="tpm-value">
              {t('tpm', { tpm: rate.data.tpm, max: rate.data.maxTPM, percent: Math.min(100, rate.data.usageTpmRate).toFixed(0) })}
            </Typography>
          ) : null}
        </Box>
      )}
    </Card>
  );
}
