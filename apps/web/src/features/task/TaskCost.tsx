import { Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { QuotaText, StatusChip } from '../../components/data';

/** What a task cost; a failed task that had cost something was refunded (relay: once, to user and token). */
export default function TaskCost({ quota, failed }: { quota: number; failed: boolean }) {
  const { t } = useTranslation('task');
  if (!quota) return <>{failed ? t('notCharged') : '-'}</>;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <QuotaText quota={quota} sx={failed ? { textDecoration: 'line-through' } : undefined} />
      {failed && <StatusChip label={t('refunded')} color="success" />}
    </Stack>
  );
}
