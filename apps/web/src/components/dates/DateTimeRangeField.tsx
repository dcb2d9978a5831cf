import { Chip, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import DatesProvider from './DatesProvider';
import { DateTimeInput } from './DateTimeField';
import { PRESETS, presetSeconds } from './date-range';

interface Props {
  /** Epoch seconds; 0 = open. */
  start: number;
  end: number;
  onChange: (start: number, end: number) => void;
  startLabel: string;
  endLabel: string;
  testId?: string;
}

/** From–to date-and-time pickers (localized, clearable) with today / 7 days / this month presets, as three grid cells. */
export default function DateTimeRangeField({ start, end, onChange, startLabel, endLabel, testId = 'time-range' }: Props) {
  const { t } = useTranslation();
  // A fragment inside the provider (which renders no element): in a filter bar's grid the two
  // pickers and the presets take a cell each.
  return (
    <DatesProvider>
      <DateTimeInput label={startLabel} value={start} onChange={(v) => onChange(v, end)} testId={`${testId}-start`} width="100%" wide />
      <DateTimeInput label={endLabel} value={end} onChange={(v) => onChange(start, v)} min={start || undefined} testId={`${testId}-end`} width="100%" wide />
      {/* The presets sit on one line (issue 38): in a wide filter grid they take two cells; should a
          narrow cell still wrap them, the rows keep one gap and one left edge (no stray margin). */}
      <Stack direction="row" useFlexGap data-testid={`${testId}-presets`} sx={{ alignItems: 'center', alignContent: 'center', flexWrap: 'wrap', gap: 0.5, gridColumn: { lg: 'span 2' } }}>
        {PRESETS.map((p) => (
          <Chip key={p} size="small" variant="outlined" label={t(`dateRange.${p}`)} data-testid={`${testId}-preset-${p}`} onClick={() => onChange(...presetSeconds(p))} />
        ))}
      </Stack>
    </DatesProvider>
  );
}
