import { useMemo, useState } from 'react';
import { Alert, Box, Button, Card, CardActions, CardContent, FormControlLabel, Grid, Stack, Switch, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Plan, PublicGateway } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError } from '../../lib/toast';
import { PageHeader, useFormatQuota } from '../../components/data';
import { formatTimestamp } from '@one-hub/contract';
import PlanCard, { type PlanSelf } from '../dashboard/components/PlanCard';
import PayDialog from './components/PayDialog';
import PlanCheckout from './components/PlanCheckout';
import { planOffer } from './topup-logic';

/** The user's plans: what runs now, the fall-back switch, and the public plans to buy. */
export default function SubscriptionPage() {
  const { t } = useTranslation('topup');
  const format = useFormatQuota();
  const queryClient = useQueryClient();
  const plans = useQuery({ queryKey: ['plan-public'], queryFn: () => api<Plan[]>('/api/plan/public') });
  const self = useQuery({ queryKey: ['plan-self'], queryFn: () => api<PlanSelf>('/api/plan/self') });
  const gateways = useQuery({ queryKey: ['user-payment'], queryFn: () => api<PublicGateway[]>('/api/user/payment'), retry: false });
  const [checkout, setCheckout] = useState<{ plan: Plan; renewFrom?: number } | null>(null);
  const [order, setOrder] = useState<{ uuid: string; plan_id: number } | null>(null);
  const gatewayList = useMemo(() => [...(gateways.data ?? [])].sort((a, b) => b.sort - a.sort), [gateways.data]);
  const subs = self.data?.subscriptions ?? [];

  const setFallback = async (enabled: boolean) => {
    try {
      await api('/api/plan/self/fallback', { method: 'PUT', json: { enabled } });
      await queryClient.invalidateQueries({ queryKey: ['plan-self'] });
    } catch (e) {
      showError(e);
    }
  };

  return (
    <Box data-testid="subscription-page">
      <PageHeader subtitle={t('plans.subtitle')} />
      <Stack spacing={2}>
        <PlanCard showEmpty />
        <Card sx={{ p: 2 }}>
          <FormControlLabel
            control={<Switch checked={self.data?.fallback ?? false} disabled={!self.data} onChange={(e) => void setFallback(e.target.checked)} slotProps={{ input: { 'aria-label': t('plans.fallback') } }} />}
            label={t('plans.fallback')}
          />
          <Typography variant="body2" color="text.secondary">
            {t('plans.fallbackHint')}
          </Typography>
        </Card>
        {gateways.isSuccess && !gatewayList.length && <Alert severity="info">{t('plans.noGateway')}</Alert>}
        {plans.data && !plans.data.length && <Alert severity="info">{t('plans.noPlans')}</Alert>}
        <Grid container spacing={2}>
          {(plans.data ?? []).map((p) => {
            const offer = planOffer(p, subs);
            return (
            <Grid key={p.id} size={{ xs: 12, sm: 6, lg: 4 }}>
              <Card sx={{ height: '100%', display: 'flex', flexDirection: 'column' }} data-testid={`plan-offer-${p.id}`}>
                <CardContent sx={{ flex: 1 }}>
                  <Typography variant="h6">{p.name}</Typography>
                  <Typography variant="h4" sx={{ fontWeight: 600, my: 1 }}>
                    {p.price.toFixed(2)} <Typography component="span">{p.currency}</Typography>
                  </Typography>
                  <Typography variant="body2">{t(`plans.length.${p.duration_kind}`, { count: p.duration_count })}</Typography>
                  <Typography variant="body2">{t(`plans.quota.${p.window_kind}`, { quota: format(p.window_quota) })}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {p.models.length ? t('plans.models', { models: p.models.join(', ') }) : t('plans.allModels')}
                  </Typography>
                  {p.description && (
                    <Typography variant="body2" color="text.secondary" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
                      {p.description}
                    </Typography>
                  )}
                </CardContent>
                <CardActions sx={{ flexDirection: 'column', alignItems: 'stretch', gap: 0.5 }}>
                  {offer.kind !== 'buy' && (
                    <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center' }} data-testid="plan-held-until">
                      {t('plans.heldUntil', { time: formatTimestamp(offer.until) })}
                    </Typography>
                  )}
                  <Button
                    variant="contained"
                    fullWidth
                    disabled={!gatewayList.length || !self.data || offer.kind === 'held'}
                    onClick={() => setCheckout(offer.kind === 'renew' ? { plan: p, renewFrom: offer.until } : { plan: p })}
                    data-testid={`plan-${offer.kind}`}
                  >
                    {t(`plans.${offer.kind}`)}
                  </Button>
                </CardActions>
              </Card>
            </Grid>
            );
          })}
        </Grid>
      </Stack>
      <PlanCheckout
        offer={checkout}
        gateways={gatewayList}
        onCancel={() => setCheckout(null)}
        onPay={(o) => {
          setCheckout(null);
          setOrder(o);
        }}
      />
      <PayDialog order={order} onClose={() => setOrder(null)} />
    </Box>
  );
}
