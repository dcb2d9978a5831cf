import { useState } from 'react';
import { Button, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';

const pad = (n: number) => String(n).padStart(2, '0');
/** A Date as the value of a `datetime-local` input (local time). */
export function toLocalInput(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function monthAgo(): Date {
  const d = new Date();
  d.setMonth(d.getMonth() - 1);
  return d;
}

/** Deletes consumption logs older than the chosen time (`DELETE /api/log/?target_timestamp`). */
export function LogCleanup() {
  const { t } = useTranslation('setting');
  const [when, setWhen] = useState(() => toLocalInput(monthAgo()));
  const [busy, setBusy] = useState(false);
  const clear = async () => {
    const ts = Math.floor(new Date(when).getTime() / 1000);
    if (!Number.isFinite(ts) || ts <= 0) return;
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
      <TextField
        type="datetime-local"
        label={t('logCleanupBefore')}
        value={when}
        onChange={(e) => setWhen(e.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ minWidth: 240 }}
      />
      <Button variant="outlined" color="error" onClick={() => void clear()} disabled={busy || !when}>
        {t('clearLogs')}
      </Button>
    </Stack>
  );
}
