import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { countText, durationParts } from './invoice-format';

/** Request time in the reader's units ("3 m 20 s", "3 分 20 秒"). */
export function useDurationText(): (ms: number) => string {
  const { t } = useTranslation('invoice');
  return (ms) => {
    const { kind, values } = durationParts(ms);
    return t(`duration.${kind}`, values);
  };
}

/** Table text at the body size the other cells use (plain strings grow on phone cards). */
export const CountCell = ({ value }: { value: number }) => (
  <Typography component="span" variant="body2">
    {countText(value)}
  </Typography>
);

export function DurationCell({ ms }: { ms: number }) {
  const duration = useDurationText();
  return (
    <Typography component="span" variant="body2">
      {duration(ms)}
    </Typography>
  );
}
