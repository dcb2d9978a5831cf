import { Typography, type TypographyProps } from '@mui/material';
import { formatTimestamp, formatTimestampMs } from '@one-hub/contract';

/**
 * Epoch seconds (or milliseconds with `ms`) as `YYYY-MM-DD HH:mm:ss`; 0 or missing shows `fallback`.
 * `stacked` puts the time under the date (narrow columns of wide tables).
 */
export function TimeText({ value, ms, fallback = '-', stacked, ...rest }: { value: number | null | undefined; ms?: boolean; fallback?: string; stacked?: boolean } & Omit<TypographyProps, 'children'>) {
  const text = value ? (ms ? formatTimestampMs(value) : formatTimestamp(value)) : fallback;
  const [date, time] = text.split(' ');
  if (stacked && time) {
    return (
      <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap', display: 'inline-flex', flexDirection: 'column', lineHeight: 1.3 }} {...rest}>
        <span>{date}</span>
        <Typography component="span" variant="caption" color="text.secondary">
          {time}
        </Typography>
      </Typography>
    );
  }
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }} {...rest}>
      {text}
    </Typography>
  );
}
