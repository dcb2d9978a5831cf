import { useState } from 'react';
import { Box, Chip, Popover, Stack, Typography } from '@mui/material';
import LayersOutlined from '@mui/icons-material/LayersOutlined';
import { useTranslation } from 'react-i18next';
import type { PriceEntry } from '@one-hub/contract';
import { formatNumber } from '../../lib/format-number';
import { ratiosOf, type Unit } from './catalog';
import PriceTiers, { PriceBand } from './PriceTiers';

/**
 * The list view's mark of a tokens price with long-context tiers: a small chip that opens (by click or tap)
 * the base price up to the first threshold and every tier above it, under the chosen group's ratio.
 */
export default function TierBadge({ price, ratio, unit }: { price: PriceEntry; ratio: number; unit: Unit }) {
  const { t, i18n } = useTranslation('model-price');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const tiers = price.type === 'tokens' ? (price.tiers ?? []) : [];
  if (tiers.length === 0) return null;
  return (
    <>
      <Chip
        data-testid="list-tier-badge"
        size="small"
        variant="outlined"
        color="secondary"
        icon={<LayersOutlined />}
        label={t('tiered')}
        aria-haspopup="dialog"
        aria-expanded={anchor !== null}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ height: 22, '& .MuiChip-label': { px: 0.75 }, '& .MuiChip-icon': { fontSize: 15, ml: 0.5 } }}
      />
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { width: 360, maxWidth: 'calc(100vw - 32px)', border: 1, borderColor: 'divider' } } }}
      >
        <Box data-testid="list-tier-popover" role="dialog" aria-label={t('tiersTitle')} sx={{ p: 1.5 }}>
          <Typography variant="subtitle2" sx={{ mb: 0.75 }}>{t('tiersTitle')}</Typography>
          <Stack spacing={0.75}>
            <PriceBand label={t('tierUpTo', { above: formatNumber(tiers[0].above, i18n.language) })} input={price.input} output={price.output} ratios={ratiosOf(price)} ratio={ratio} unit={unit} testId="list-tier-base" />
            <PriceTiers price={price} ratio={ratio} unit={unit} testId="list" />
          </Stack>
        </Box>
      </Popover>
    </>
  );
}
