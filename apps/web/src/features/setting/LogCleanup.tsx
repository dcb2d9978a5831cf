import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import DateTimeField from '../../components/dates/DateTimeField';

function monthAgo(): number {
  const d = new Date();
  d.setMonth(d.getMonth() - 1);
  return Math.floor(d.getTime() / 1000);
}

/** Deletes consumption logs older than the chosen time (`DELETE /api/log/?target_timestamp`). */
export function LogCleanup() {
  const { t } = useTranslation('setting');
  const [when, setWhen] = useState(monthAgo);
  const [busy, setBusy] = useState(false);
  const clear = async () => {
    const ts = when;
    if (ts <= 0) return;
    setBusy(true);
    try {
      const count = await api<number>('/api/log/', { method: 'DELETE', query: { target_timestamp: ts } });
      showSuccess(t('logsCleared', { count }));
    } catch (e) {
      showError(e);
    }
    setBusy(false);
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <DateTimeField label={t('logCleanupBefore')} value={when} onChange={setWhen} testId="log-cleanup-before" width={260} />
      <Button variant="outlined" color="error" onClick={() => void clear()} disabled={busy || !when}>
        {t('clearLogs')}
      </Button>
    </Stack>
  );
}
