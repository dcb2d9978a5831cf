import { Button, IconButton, MenuItem, Stack, TextField } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Close from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { EXTRA_RATIO_CLASSES } from '@one-hub/contract';
import type { RatioRow } from './price-form';

/** The classes a ratio editor offers and the i18n prefix of their names: usage classes (default) or service classes. */
export interface RatioClasses {
  classes?: readonly string[];
  labels?: string;
}

/** The rows of a ratio editor (class → multiplier): usage classes for the base price or one tier, or service classes. */
export function RatioRows({ rows, onChange, testId, classes = EXTRA_RATIO_CLASSES, labels = 'ratio' }: { rows: RatioRow[]; onChange: (rows: RatioRow[]) => void; testId?: string } & RatioClasses) {
  const { t } = useTranslation('pricing');
  const edit = (i: number, k: keyof RatioRow, v: string) => onChange(rows.map((y, j) => (j === i ? { ...y, [k]: v } : y)));
  return (
    <Stack spacing={1} data-testid={testId}>
      {rows.map((x, i) => (
        <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField select size="small" label={t('ratioKind')} value={x.kind} sx={{ flex: 2 }} onChange={(e) => edit(i, 'kind', e.target.value)}>
            {classes.map((k) => (
              <MenuItem key={k} value={k}>
                {t(`${labels}.${k}`)}
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
export function AddRatioButton({ rows, onChange, label, classes = EXTRA_RATIO_CLASSES }: { rows: RatioRow[]; onChange: (rows: RatioRow[]) => void; label: string; classes?: readonly string[] }) {
  return (
    <Button size="small" startIcon={<Add />} onClick={() => onChange([...rows, { kind: classes.find((k) => !rows.some((x) => x.kind === k)) ?? '', value: '1' }])}>
      {label}
    </Button>
  );
}
