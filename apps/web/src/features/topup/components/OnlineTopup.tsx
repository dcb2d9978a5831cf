import { useEffect, useMemo, useState } from 'react';
import { Badge, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { parseRechargeDiscount, rechargePresets, type PublicGateway } from '@one-hub/contract';
import { showError } from '../../../lib/toast';
import { useAppSelector } from '../../../store';
import { discountBadge, topUpProblem, topUpSummary } from '../topup-logic';
import PayDialog from './PayDialog';
import GatewayPicker from './GatewayPicker';
import OrderSummary from './OrderSummary';

const money = (n: number) => n.toFixed(2);

/** Online top-up: gateway, amount presets with discounts, the price summary and the pay dialog (console-screens §3.8). */
export default function OnlineTopup({ gateways }: { gateways: PublicGateway[] }) {
  const { t, i18n } = useTranslation('topup');
  const site = useAppSelector((s) => s.siteInfo);
  const sorted = useMemo(() => [...gateways].sort((a, b) => b.sort - a.sort), [gateways]);
  const [uuid, setUuid] = useState(sorted[0]?.uuid ?? '');
  const [amount, setAmount] = useState('');
  const [order, setOrder] = useState<{ uuid: string; amount: number } | null>(null);
  useEffect(() => {
    if (!sorted.some((g) => g.uuid === uuid)) setUuid(sorted[0]?.uuid ?? '');
  }, [sorted, uuid]);

  const discounts = parseRechargeDiscount(site.RechargeDiscount ?? '');
  const presets = rechargePresets(site.RechargeDiscount ?? '');
  const gateway = sorted.find((g) => g.uuid === uuid);
  const usdRate = site.PaymentUSDRate ?? 7.3;
  const n = Number(amount);
  const summary = gateway && n > 0 && Number.isFinite(n) ? topUpSummary(n, discounts[String(n)] ?? 1, gateway, usdRate) : null;
  const chinese = i18n.language.startsWith('zh');

  const submit = () => {
    const problem = topUpProblem(amount, gateway, site.PaymentMinAmount ?? 1);
    if (problem) return showError(t(problem.key, { min: problem.min }));
    setOrder({ uuid: gateway!.uuid, amount: Number(amount) });
  };

  return (
    <Stack spacing={2} data-testid="online-topup">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('online')}
      </Typography>
      <GatewayPicker gateways={sorted} value={uuid} onChange={setUuid} />
      {presets.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, pt: 1 }}>
          {presets.map((p) => {
            const badge = discountBadge(p.discount);
            return (
              <Badge key={p.amount} color="error" invisible={!badge} badgeContent={badge ? t('badge', { value: chinese ? badge.zhe : badge.off }) : ''}>
                <Button variant={Number(amount) === p.amount ? 'contained' : 'outlined'} onClick={() => setAmount(String(p.amount))} data-testid={`preset-${p.amount}`} sx={{ minWidth: 80 }}>
                  ${p.amount}
                </Button>
              </Badge>
            );
          })}
        </Box>
      )}
      <TextField
        label={t('amount')}
        type="number"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && submit()}
        slotProps={{ htmlInput: { min: site.PaymentMinAmount ?? 1, step: 1, 'data-testid': 'topup-amount' } }}
        helperText={t('minHint', { min: Math.max(1, site.PaymentMinAmount ?? 1) })}
      />
      {summary && gateway && (
        <OrderSummary
          quote={summary}
          gateway={gateway}
          usdRate={usdRate}
          lines={[
            { label: t('sumAmount'), value: `$${money(n)}`, testId: 'sum-amount' },
            ...(summary.discounted !== n ? [{ label: t('sumDiscounted'), value: `$${money(summary.discounted)}`, testId: 'sum-discounted' }] : []),
          ]}
        />
      )}
      <Button variant="contained" size="large" onClick={submit} data-testid="topup-submit">
        {t('topUp')}
      </Button>
      <PayDialog order={order} onClose={() => setOrder(null)} />
    </Stack>
  );
}
