import { useEffect, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatTimestamp, type Plan, type PublicGateway } from '@one-hub/contract';
import { useAppSelector } from '../../../store';
import { planSummary } from '../topup-logic';
import GatewayPicker from './GatewayPicker';
import OrderSummary from './OrderSummary';

export interface PlanCheckoutProps {
  /** The plan to buy, and when the running period ends for a renewal; null keeps the dialog closed. */
  offer: { plan: Plan; renewFrom?: number } | null;
  /** Sorted, the first preselected. */
  gateways: PublicGateway[];
  onCancel: () => void;
  onPay: (order: { uuid: string; plan_id: number }) => void;
}

/** The bill before a plan's order: the gateway, the price in its currency, the fee and the rate, as top-up shows them. */
export default function PlanCheckout({ offer, gateways, onCancel, onPay }: PlanCheckoutProps) {
  const { t } = useTranslation('topup');
  const usdRate = useAppSelector((s) => s.siteInfo.PaymentUSDRate) ?? 7.3;
  const [uuid, setUuid] = useState(gateways[0]?.uuid ?? '');
  useEffect(() => {
    if (!gateways.some((g) => g.uuid === uuid)) setUuid(gateways[0]?.uuid ?? '');
  }, [gateways, uuid]);
  const gateway = gateways.find((g) => g.uuid === uuid);
  const plan = offer?.plan;
  const renew = offer?.renewFrom !== undefined;
  const quote = plan && gateway ? planSummary(plan, gateway, usdRate) : null;
  return (
    <Dialog open={offer !== null} onClose={onCancel} maxWidth="xs" fullWidth data-testid="plan-checkout">
      <DialogTitle>{plan && t(renew ? 'plans.renewTitle' : 'plans.buyTitle', { name: plan.name })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {renew && (
            <Alert severity="info" data-testid="plan-renew-hint">
              {t('plans.renewHint', { time: formatTimestamp(offer!.renewFrom!) })}
            </Alert>
          )}
          <Typography variant="subtitle2">{t('plans.gateway')}</Typography>
          <GatewayPicker gateways={gateways} value={uuid} onChange={setUuid} columns={1} />
          {plan && gateway && quote && (
            <OrderSummary
              quote={quote}
              gateway={gateway}
              usdRate={usdRate}
              lines={[
                { label: t('plans.sumPrice'), value: `${plan.price.toFixed(2)} ${plan.currency}`, testId: 'sum-price' },
                ...(plan.currency === 'CNY' ? [{ label: t('plans.sumUsd', { rate: usdRate }), value: `$${quote.discounted.toFixed(2)}`, testId: 'sum-usd' }] : []),
              ]}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('common.cancel', { ns: 'common' })}</Button>
        <Button variant="contained" disabled={!gateway || !plan} onClick={() => plan && gateway && onPay({ uuid: gateway.uuid, plan_id: plan.id })} data-testid="plan-pay">
          {t('plans.pay')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
