import { useEffect, useRef } from 'react';
import { Alert, Button } from '@mui/material';
import { formatTimestampMs } from '@one-hub/contract';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../lib/error-handler';
import { showError } from '../../lib/toast';

export interface StaleBannerProps {
  error: unknown;
  /** When the rows on show were loaded (epoch ms). */
  updatedAt: number;
  onRetry?: () => void;
  retrying?: boolean;
}

/**
 * A refresh failed while rows are shown: they stay, a banner says how old they are and offers Retry,
 * and the error handler's toast (console-spec §8) appears once per failure.
 */
export function StaleBanner({ error, updatedAt, onRetry, retrying }: StaleBannerProps) {
  const { t } = useTranslation();
  const toasted = useRef<unknown>(undefined);
  useEffect(() => {
    if (toasted.current === error) return;
    toasted.current = error;
    showError(error);
  }, [error]);
  return (
    <Alert
      severity="warning"
      data-testid="table-stale"
      sx={{ mx: 2, my: 1 }}
      action={
        onRetry && (
          <Button color="inherit" size="small" disabled={retrying} onClick={onRetry} data-testid="table-stale-retry">
            {t('table.retry')}
          </Button>
        )
      }
    >
      {t('table.stale', { time: formatTimestampMs(updatedAt), reason: describeError(error, t).text })}
    </Alert>
  );
}
