import { Button, IconButton, MenuItem, Stack, TextField } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Close from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { EXTRA_RATIO_CLASSES } from '@one-hub/contract';
import type { RatioRow } from './price-form';

/** The rows of a usage-class ratio editor (class → multiplier), for the base price or one tier. */
export function RatioRows({ rows, onChange, testId }: { rows: RatioRow[]; onChange: (rows: RatioRow[]) => void; testId?: string }) {
  const { t } = useTranslation('pricing');
  const edit = (i: number, k: keyof RatioRow, v: string) => onChange(rows.map((y, j) => (j === i ? { ...y, [k]: v } : y)));
  return (
    <Stack spacing={1} data-testid={testId}>
      {rows.map((x, i) => (
        <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField select size="small" label={t('ratioKind')} value={x.kind} sx={{ flex: 2 }} onChange={(e) => edit(i, 'kind', e.target.value)}>
            {EXTRA_RATIO_CLASSES.map((k) => (
              <MenuItem key={k} value={k}>
                {t(`ratio.${k}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField size="small" type="number" label={t('ratioValue')} value={x.value} sx={{ flex: 1 }} onChange={(e) => edit(i, 'value', e.target.value)} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
          <IconButton size="small" aria-label={t('removeRatio')} onClick={() => onChange(rows.filter((_y, j) => j !== i))}>
            <Close fontSize="small" />
          </IconButton>
        </Stack>
      ))}
    </Stack>
  );
}

/** Adds a row for the first class not yet set (ratio 1). */
export function AddRatioButton({ rows, onChange, label }: { rows: RatioRow[]; onChange: (rows: RatioRow[]) => void; label: string }) {
  return (
    <Button size="small" startIcon={<Add />} onClick={() => onChange([...rows, { kind: EXTRA_RATIO_CLASSES.find((k) => !rows.some((x) => x.kind === k)) ?? '', value: '1' }])}>
      {label}
    </Button>
  );
}
