import { Typography, type TypographyProps } from '@mui/material';
import { formatTimestamp, formatTimestampMs } from '@one-hub/contract';

/** Epoch seconds (or milliseconds with `ms`) as `YYYY-MM-DD HH:mm:ss`; 0 or missing shows `fallback`. */
export function TimeText({ value, ms, fallback = '-', ...rest }: { value: number | null | undefined; ms?: boolean; fallback?: string } & Omit<TypographyProps, 'children'>) {
  const text = value ? (ms ? formatTimestampMs(value) : formatTimestamp(value)) : fallback;
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }} {...rest}>
      {text}
    </Typography>
  );
}
