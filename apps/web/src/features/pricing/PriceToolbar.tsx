import { Box, IconButton, InputAdornment, MenuItem, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import Close from '@mui/icons-material/Close';
import Search from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import type { PriceFilters, PriceUnit } from './price-logic';

interface Props {
  filters: PriceFilters;
  onFilters: (f: PriceFilters) => void;
  unit: PriceUnit;
  onUnit: (u: PriceUnit) => void;
  owners: { id: number; name: string }[];
}

/** Search (model or provider), type, provider and lock filters, and the K/M unit; filters apply as typed (client-side). */
export default function PriceToolbar({ filters, onFilters, unit, onUnit, owners }: Props) {
  const { t } = useTranslation('pricing');
  const set = <K extends keyof PriceFilters>(k: K, v: PriceFilters[K]) => onFilters({ ...filters, [k]: v });
  return (
    <Box sx={{ p: 2, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '2fr 1fr 1fr 1fr auto' }, alignItems: 'center' }}>
      <TextField
        size="small"
        placeholder={t('searchPlaceholder')}
        value={filters.search}
        onChange={(e) => set('search', e.target.value)}
        slotProps={{
          htmlInput: { 'data-testid': 'price-search' },
          input: {
            startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment>,
            endAdornment: filters.search ? (
              <InputAdornment position="end">
                <IconButton size="small" aria-label={t('clearSearch')} onClick={() => set('search', '')}>
                  <Close fontSize="small" />
                </IconButton>
              </InputAdornment>
            ) : undefined,
          },
        }}
      />
      <TextField select size="small" label={t('type')} value={filters.type} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} onChange={(e) => set('type', e.target.value as PriceFilters['type'])}>
        <MenuItem value="">{t('all')}</MenuItem>
        <MenuItem value="tokens">{t('byTokens')}</MenuItem>
        <MenuItem value="times">{t('byTimes')}</MenuItem>
      </TextField>
      <TextField select size="small" label={t('provider')} value={filters.owner} onChange={(e) => set('owner', Number(e.target.value))}>
        <MenuItem value={0}>{t('all')}</MenuItem>
        {owners.map((o) => (
          <MenuItem key={o.id} value={o.id}>
            {o.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField select size="small" label={t('locked')} value={filters.locked} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} onChange={(e) => set('locked', e.target.value as PriceFilters['locked'])}>
        <MenuItem value="">{t('all')}</MenuItem>
        <MenuItem value="locked">{t('lockedYes')}</MenuItem>
        <MenuItem value="unlocked">{t('unlocked')}</MenuItem>
      </TextField>
      <ToggleButtonGroup size="small" exclusive value={unit} onChange={(_e, v: PriceUnit | null) => v && onUnit(v)} aria-label={t('unit')}>
        <ToggleButton value="K">K</ToggleButton>
        <ToggleButton value="M">M</ToggleButton>
      </ToggleButtonGroup>
    </Box>
  );
}
