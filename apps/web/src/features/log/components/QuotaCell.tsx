import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { quotaToCurrency, type LogEntry } from '@one-hub/contract';
import { StatusChip, useFormatQuota } from '../../../components/data';
import { useAppSelector } from '../../../store';
import { useServerText } from '../../../lib/server-text';
import { discount, logPricing } from '../log-data';

const CONSUME = 2;

/**
 * Cost: a consumption row in green with 6 decimals (the undiscounted cost struck through above it).
 * Other rows (top-ups, refunds, admin credits) are whole amounts: 2 decimals, as money is written.
 */
export function QuotaCell({ log }: { log: LogEntry }) {
  const quotaPerUnit = useAppSelector((s) => s.siteInfo.quota_per_unit);
  const format = useFormatQuota();
  if (log.type !== CONSUME) return <>{log.quota ? format(log.quota, 2) : '$0'}</>;
  const pricing = logPricing(log);
  const off = pricing ? discount(log.quota, pricing.groupRatio, quotaPerUnit) : null;
  return (
    <Stack sx={{ alignItems: 'flex-end' }}>
      {off && (
        <Typography variant="caption" color="text.secondary" sx={{ textDecoration: 'line-through' }}>
          ${off.original.toFixed(6)}
        </Typography>
      )}
      <Typography variant="body2" color="success.main" sx={{ fontWeight: 600 }} data-testid="log-cost">
        {quotaToCurrency(log.quota, quotaPerUnit, 6)}
      </Typography>
    </Stack>
  );
}

/** Prices of a priced row, "Free" for a free consumption, else the row's text. */
export function DetailCell({ log }: { log: LogEntry }) {
  const { t } = useTranslation('log');
  const { logText } = useServerText();
  const pricing = logPricing(log);
  if (log.type === CONSUME && log.quota === 0) return <StatusChip label={t('free')} color="success" />;
  if (!pricing) return <Box sx={{ maxWidth: 240, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', textAlign: 'left' }} data-testid="log-text">{logText(log)}</Box>;
  if (pricing.type === 'times') return <StatusChip color="info" label={`$${price(pricing.actualInput)} / ${t('perCall')}`} />;
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-end' }}>
      {[`${t('input')}: $${price(pricing.actualInput)} /M`, `${t('output')}: $${price(pricing.actualOutput)} /M`].map((label) => (
        <StatusChip key={label} color="info" label={label} title={label} sx={{ maxWidth: 150 }} />
      ))}
    </Stack>
  );
}

/** Up to four decimals without trailing zeros ($2.5, $0.15, $20000): the table cell stays narrow; the expanded detail keeps every digit. */
function price(n: number): string {
  return String(Number(n.toFixed(4)));
}
