import { Box, Chip, Stack } from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import DatesProvider from './DatesProvider';
import { PRESETS, presetRange } from './date-range';

interface Props {
  /** 'YYYY-MM-DD' or '' (cleared). */
  start: string;
  end: string;
  onChange: (start: string, end: string) => void;
  startLabel: string;
  endLabel: string;
  /** Latest day that may be picked. */
  max?: string;
  testId?: string;
}

/** Two localized date pickers (clearable) with today / 7 days / this month presets. */
export default function DateRangeField({ start, end, onChange, startLabel, endLabel, max, testId = 'range' }: Props) {
  const { t } = useTranslation();
  const day = (v: string) => (v ? dayjs(v) : null);
  const text = (v: dayjs.Dayjs | null) => (v && v.isValid() ? v.format('YYYY-MM-DD') : '');
  const picker = (label: string, value: string, set: (v: string) => void, which: 'start' | 'end') => (
    <Box data-testid={`${testId}-${which}`}>
    <DatePicker
      label={label}
      value={day(value)}
      onChange={(v) => set(text(v))}
      format="YYYY-MM-DD"
      maxDate={max ? dayjs(max) : undefined}
      minDate={which === 'end' && start ? dayjs(start) : undefined}
      slotProps={{ textField: { size: 'small', sx: { width: { xs: '100%', sm: 200 } } }, field: { clearable: true } }}
    />
    </Box>
  );
  return (
    <DatesProvider>
      {/* The presets keep together on one line (issue 38); a narrow row moves the whole group under the pickers. */}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap sx={{ alignItems: { sm: 'center' }, flexWrap: 'wrap' }}>
        {picker(startLabel, start, (v) => onChange(v, end), 'start')}
        {picker(endLabel, end, (v) => onChange(start, v), 'end')}
        <Stack direction="row" useFlexGap data-testid={`${testId}-presets`} sx={{ flexWrap: 'nowrap', flexShrink: 0, gap: 0.5 }}>
          {PRESETS.map((p) => (
            <Chip key={p} size="small" variant="outlined" label={t(`dateRange.${p}`)} data-testid={`${testId}-preset-${p}`} onClick={() => onChange(...presetRange(p))} />
          ))}
        </Stack>
      </Stack>
    </DatesProvider>
  );
}
