import { Box } from '@mui/material';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import dayjs from 'dayjs';
import DatesProvider from './DatesProvider';

interface Props {
  /** Epoch seconds; 0 = empty. */
  value: number;
  onChange: (seconds: number) => void;
  label: string;
  testId?: string;
  /** Earliest moment that may be picked (epoch seconds). */
  min?: number;
  error?: boolean;
  helperText?: string;
  width?: number | string;
  /** In a filter bar's grid: take two cells on wide screens, so the whole date and time shows. */
  wide?: boolean;
}

/** One localized, clearable date-and-time picker (MUI X) holding epoch seconds. */
export function DateTimeInput({ value, onChange, label, testId, min, error, helperText, width = 220, wide }: Props) {
  return (
    // minWidth 0: in a filter bar's grid the picker takes its cell's width instead of widening the column
    <Box data-testid={testId} sx={{ minWidth: 0, gridColumn: wide ? { lg: 'span 2' } : undefined }}>
      <DateTimePicker
        label={label}
        value={value > 0 ? dayjs.unix(value) : null}
        onChange={(v) => onChange(v && v.isValid() ? v.unix() : 0)}
        format="YYYY-MM-DD HH:mm"
        ampm={false}
        minDateTime={min ? dayjs.unix(min) : undefined}
        slotProps={{ textField: { size: 'small', error, helperText, sx: { width: { xs: '100%', sm: width }, minWidth: 0, '& .MuiPickersInputBase-root': { fontSize: '0.875rem' }, '& .MuiPickersSectionList-root': { overflow: 'hidden' } } }, field: { clearable: true } }}
      />
    </Box>
  );
}

/** The picker with its own localization provider, for screens that use only this one. */
export default function DateTimeField(props: Props) {
  return (
    <DatesProvider>
      <DateTimeInput {...props} />
    </DatesProvider>
  );
}
