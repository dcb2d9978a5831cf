import { useEffect, useState } from 'react';
import { Button, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';

const KEY = 'AuditLogRetentionDays';

/** The retention option, beside the log it governs (root only, like the screen). */
export default function RetentionField() {
  const { t } = useTranslation('audit-log');
  const options = useQuery({ queryKey: ['options'], queryFn: () => api<Array<{ key: string; value: string }>>('/api/option/') });
  const [days, setDays] = useState('');
  useEffect(() => setDays(options.data?.find((o) => o.key === KEY)?.value ?? '365'), [options.data]);
  const bad = !/^\d+$/.test(days.trim());

  const save = async () => {
    try {
      await api('/api/option/', { method: 'PUT', json: { key: KEY, value: days.trim() } });
      showSuccess(t('retentionSaved'));
    } catch (e) {
      showError(e);
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <TextField size="small" label={t('retention')} value={days} onChange={(e) => setDays(e.target.value)} error={bad} helperText={t('retentionHelp')} disabled={options.isLoading} slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'audit-retention' } }} />
      <Button variant="outlined" onClick={() => void save()} disabled={bad || options.isLoading}>
        {t('save')}
      </Button>
    </Stack>
  );
}
