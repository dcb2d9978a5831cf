import { Box, Card, LinearProgress, Stack, Typography } from '@mui/material';
import CardMembership from '@mui/icons-material/CardMembershipOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTimestamp, type Subscription } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { StatusChip, useFormatQuota } from '../../../components/data';

export interface PlanSelf {
  fallback: boolean;
  subscriptions: Subscription[];
}

/** The user's running plans: each window's spend and when it resets. Renders nothing without a plan unless `showEmpty`. */
export default function PlanCard({ showEmpty = false }: { showEmpty?: boolean }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatQuota();
  const self = useQuery({ queryKey: ['plan-self'], queryFn: () => api<PlanSelf>('/api/plan/self') });
  const subs = self.data?.subscriptions ?? [];
  if (!subs.length && !showEmpty) return null;
  return (
    <Card sx={{ p: 2.5 }} data-testid="plan-card">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
        <CardMembership fontSize="small" color="primary" />
        <Typography variant="subtitle2">{t('plans.title')}</Typography>
      </Stack>
      {!subs.length && (
        <Typography variant="body2" color="text.secondary">
          {self.isLoading ? t('plans.loading') : t('plans.none')}
        </Typography>
      )}
      <Stack spacing={2}>
        {subs.map((s) => {
          const percent = s.window_quota ? Math.min(100, (s.window_used / s.window_quota) * 100) : 0;
          return (
            <Box key={s.id} data-testid={`plan-usage-${s.plan_id}`}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 0.5 }}>
                <Typography sx={{ fontWeight: 600 }}>{s.plan_name}</Typography>
                <StatusChip label={t(`plans.status.${s.status}`)} color={s.status === 'active' ? 'success' : 'orange'} />
              </Stack>
              <LinearProgress variant="determinate" value={percent} sx={{ my: 1, height: 8, borderRadius: 4 }} color={percent >= 100 ? 'error' : 'primary'} />
              <Typography variant="body2" data-testid="plan-window-used">
                {t('plans.used', { used: format(s.window_used), quota: format(s.window_quota), window: t(`plans.window.${s.window_kind}`) })}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="div">
                {s.status === 'pending' ? t('plans.startsAt', { time: formatTimestamp(s.start_at) }) : t('plans.resetsAt', { time: formatTimestamp(s.window_end) })}
                {' · '}
                {t('plans.validUntil', { time: formatTimestamp(s.end_at) })}
              </Typography>
            </Box>
          );
        })}
      </Stack>
    </Card>
  );
}
