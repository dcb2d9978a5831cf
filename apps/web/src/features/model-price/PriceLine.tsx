import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PriceEntry } from '@one-hub/contract';
import { groupPrice, type Unit } from './catalog';

/** "$0.0025 / 1K" (per call without a unit) for one rate under a group ratio; "Free" for 0. */
export function PriceValue({ rate, ratio, unit, type }: { rate: number; ratio: number; unit: Unit; type: PriceEntry['type'] }) {
  const { t } = useTranslation('model-price');
  const usd = groupPrice(rate, ratio, unit, type);
  if (usd === null)
    return (
      <Typography component="span" variant="body2" color="success.main" sx={{ fontWeight: 600 }}>
        {t('free')}
      </Typography>
    );
  return (
    <Typography component="span" variant="body2" sx={{ fontWeight: 600, fontFamily: 'ui-monospace, monospace' }}>
      ${usd}
      {type === 'tokens' && <Typography component="span" variant="caption" color="text.secondary">{` / 1${unit}`}</Typography>}
    </Typography>
  );
}

/** "Cached ×0.1, Cache write ×1.25": usage-class ratios in the reader's language (the detail dialog and the cards). */
export function useRatioText() {
  const { t } = useTranslation('model-price');
  return (ratios: [string, number][]) => ratios.map(([k, v]) => `${t(`ratio.${k}`, { defaultValue: k })} ×${v}`).join(', ');
}
