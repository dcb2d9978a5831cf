import { useEffect, useMemo, useState } from 'react';
import { Badge, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { parseRechargeDiscount, rechargePresets, type PublicGateway } from '@one-hub/contract';
import { showError } from '../../../lib/toast';
import { useAppSelector } from '../../../store';
import { discountBadge, topUpProblem, topUpSummary } from '../topup-logic';
import PayDialog from './PayDialog';
import GatewayIcon from '../../../components/GatewayIcon';

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

  const line = (label: string, value: string, testId: string) => (
    <Stack direction="row" sx={{ justifyContent: 'space-between' }} data-testid={testId}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ fontWeight: 500 }}>{value}</Typography>
    </Stack>
  );
  return (
    <Stack spacing={2} data-testid="online-topup">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('online')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
        {sorted.map((g) => (
          <Button
            key={g.uuid}
            variant="outlined"
            color={g.uuid === uuid ? 'primary' : 'inherit'}
            onClick={() => setUuid(g.uuid)}
            aria-pressed={g.uuid === uuid}
            startIcon={g.icon ? <GatewayIcon src={g.icon} /> : undefined}
            sx={{ justifyContent: 'flex-start', py: 1.25, borderWidth: g.uuid === uuid ? 2 : 1, borderColor: g.uuid === uuid ? 'primary.main' : 'divider' }}
          >
            {g.name}
          </Button>
        ))}
      </Box>
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
        <Stack spacing={0.75} sx={{ p: 2, borderRadius: 2, bgcolor: 'action.hover' }} data-testid="topup-summary">
          {line(t('sumAmount'), `$${money(n)}`, 'sum-amount')}
          {summary.discounted !== n && line(t('sumDiscounted'), `$${money(summary.discounted)}`, 'sum-discounted')}
          {summary.feeKind !== 'none' &&
            line(summary.feeKind === 'fixed' ? t('sumFeeFixed') : t('sumFeePercent', { percent: Math.round(gateway.percent_fee * 10000) / 100 }), `$${money(summary.fee)}`, 'sum-fee')}
          {line(summary.cny ? t('sumPayCny', { rate: usdRate }) : t('sumPay', { currency: gateway.currency }), `${summary.cny ? (chinese ? '¥' : 'CNY ') : '$'}${money(summary.pay)}`, 'sum-pay')}
        </Stack>
      )}
      <Button variant="contained" size="large" onClick={submit} data-testid="topup-submit">
        {t('topUp')}
      </Button>
      <PayDialog order={order} onClose={() => setOrder(null)} />
    </Stack>
  );
}
