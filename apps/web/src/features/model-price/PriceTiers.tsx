import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PriceEntry } from '@one-hub/contract';
import { formatNumber } from '../../lib/format-number';
import { ratiosOf, type Unit } from './catalog';
import { PriceValue, useRatioText } from './PriceLine';

/** A price's (or tier's) usage-class ratios as one small line, as the detail dialog words them; nothing when there are none. */
export function RatioLine({ ratios, testId }: { ratios: [string, number][]; testId: string }) {
  const ratioText = useRatioText();
  if (ratios.length === 0) return null;
  return (
    <Typography data-testid={testId} variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: 'right', lineHeight: 1.4 }}>
      {ratioText(ratios)}
    </Typography>
  );
}

interface BandProps {
  /** "Prompt > N tokens" or the like. */
  label: string;
  input: number;
  output: number;
  ratios: [string, number][];
  ratio: number;
  unit: Unit;
  testId: string;
}

/** One band of a tokens price: its label, "input / output" under the group ratio, and its usage-class ratios below. */
export function PriceBand({ label, input, output, ratios, ratio, unit, testId }: BandProps) {
  return (
    <Box data-testid={testId}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline', flexWrap: 'wrap', columnGap: 1 }}>
        <Typography variant="caption" color="text.secondary">{label}</Typography>
        <Typography component="span" variant="body2" sx={{ ml: 'auto' }}>
          <PriceValue rate={input} ratio={ratio} unit={unit} type="tokens" /> / <PriceValue rate={output} ratio={ratio} unit={unit} type="tokens" />
        </Typography>
      </Stack>
      <RatioLine ratios={ratios} testId={`${testId}-ratios`} />
    </Box>
  );
}

/**
 * A tokens price's long-context tiers under a group ratio, one band each ("Prompt > N tokens"). The model
 * cards and the list view's tier popover both show them so. Test ids: `{testId}-tier`, `{testId}-tier-ratios`.
 */
export default function PriceTiers({ price, ratio, unit, testId }: { price: PriceEntry; ratio: number; unit: Unit; testId: string }) {
  const { t, i18n } = useTranslation('model-price');
  if (price.type !== 'tokens') return null;
  return (price.tiers ?? []).map((tier) => (
    <PriceBand key={tier.above} label={t('tierAbove', { above: formatNumber(tier.above, i18n.language) })} input={tier.input} output={tier.output} ratios={ratiosOf(price, tier)} ratio={ratio} unit={unit} testId={`${testId}-tier`} />
  ));
}
