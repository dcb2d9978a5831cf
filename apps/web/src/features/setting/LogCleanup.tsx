import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, LinearProgress, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { LogDeletion } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import DateTimeField from '../../components/dates/DateTimeField';

function monthAgo(): number {
  const d = new Date();
  d.setMonth(d.getMonth() - 1);
  return Math.floor(d.getTime() / 1000);
}

/** How often the running deletion's progress is read again. */
export const PROGRESS_MS = 1000;

/**
 * Deletes consumption logs older than the chosen time as a background job
 * (`DELETE /api/log/?target_timestamp&background=true`): the answer is the job at once, its
 * progress is read from `GET /api/log/deletion/<id>` until it ends, and a reload finds a running
 * job again through `GET /api/log/deletion` (the job lives in the database, not in this page).
 */
export function LogCleanup() {
  const { t } = useTranslation('setting');
  const [when, setWhen] = useState(monthAgo);
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<LogDeletion | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const follow = useCallback(
    (current: LogDeletion, announce: boolean) => {
      setJob(current);
      if (current.status === 'running') {
        timer.current = setTimeout(() => {
          api<LogDeletion>(`/api/log/deletion/${current.id}`).then(
            (next) => follow(next, true),
            (e: unknown) => {
              showError(e);
              setJob(null);
            },
          );
        }, PROGRESS_MS);
        return;
      }
      if (!announce) return;
      if (current.status === 'done') showSuccess(t('logsCleared', { count: current.deleted }));
    },
    [t],
  );

  useEffect(() => {
    // After a reload: a deletion still running is followed again.
    api<LogDeletion | null>('/api/log/deletion').then(
      (current) => current?.status === 'running' && follow(current, true),
      () => undefined,
    );
    return () => clearTimeout(timer.current);
  }, [follow]);

  const clear = async () => {
    const ts = when;
    if (ts <= 0) return;
    setBusy(true);
    try {
      follow(await api<LogDeletion>('/api/log/', { method: 'DELETE', query: { target_timestamp: ts, background: 'true' } }), true);
    } catch (e) {
      showError(e);
    }
    setBusy(false);
  };
  const running = job?.status === 'running';
  return (
    <Stack spacing={1.5}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <DateTimeField label={t('logCleanupBefore')} value={when} onChange={setWhen} testId="log-cleanup-before" width={260} />
        <Button variant="outlined" color="error" onClick={() => void clear()} disabled={busy || running || !when} data-testid="log-cleanup-start">
          {t('clearLogs')}
        </Button>
      </Stack>
      {running && (
        <Stack spacing={0.5} data-testid="log-cleanup-progress">
          <LinearProgress />
          <span>{t('logDeletionRunning', { id: job.id, count: job.deleted })}</span>
        </Stack>
      )}
      {job?.status === 'failed' && <Alert severity="error">{t('logDeletionFailed', { id: job.id, count: job.deleted, error: job.error })}</Alert>}
    </Stack>
  );
}
