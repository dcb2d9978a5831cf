import { Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { OrderQuote, PublicGateway } from '@one-hub/contract';

const money = (n: number) => n.toFixed(2);

export interface SummaryLine {
  label: string;
  value: string;
  testId: string;
}

/**
 * The bill before an order (console-screens §3.8): the caller's lines (amount, discount or plan price),
 * then the gateway's fee and the amount to pay in the gateway's currency, with the exchange rate for CNY.
 */
export default function OrderSummary({ lines, quote, gateway, usdRate }: { lines: SummaryLine[]; quote: OrderQuote; gateway: PublicGateway; usdRate: number }) {
  const { t, i18n } = useTranslation('topup');
  const chinese = i18n.language.startsWith('zh');
  const cny = gateway.currency === 'CNY';
  const line = ({ label, value, testId }: SummaryLine) => (
    <Stack key={testId} direction="row" spacing={2} sx={{ justifyContent: 'space-between' }} data-testid={testId}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ fontWeight: 500, whiteSpace: 'nowrap' }}>{value}</Typography>
    </Stack>
  );
  const all = [...lines];
  if (quote.feeKind !== 'none') {
    const label = quote.feeKind === 'fixed' ? t('sumFeeFixed') : t('sumFeePercent', { percent: Math.round(gateway.percent_fee * 10000) / 100 });
    all.push({ label, value: `$${money(quote.fee)}`, testId: 'sum-fee' });
  }
  all.push({
    label: cny ? t('sumPayCny', { rate: usdRate }) : t('sumPay', { currency: gateway.currency }),
    value: `${cny ? (chinese ? '¥' : 'CNY ') : '$'}${money(quote.pay)}`,
    testId: 'sum-pay',
  });
  return (
    <Stack spacing={0.75} sx={{ p: 2, borderRadius: 2, bgcolor: 'action.hover' }} data-testid="topup-summary">
      {all.map(line)}
    </Stack>
  );
}
