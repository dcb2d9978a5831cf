import { Typography } from '@mui/material';
import { countText, durationText } from './invoice-format';

/** Table text at the body size the other cells use (plain strings grow on phone cards). */
export const CountCell = ({ value }: { value: number }) => (
  <Typography component="span" variant="body2">
    {countText(value)}
  </Typography>
);

export const DurationCell = ({ ms }: { ms: number }) => (
  <Typography component="span" variant="body2">
    {durationText(ms)}
  </Typography>
);
