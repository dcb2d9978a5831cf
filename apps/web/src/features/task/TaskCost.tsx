import { Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { QuotaText, StatusChip } from '../../components/data';

/**
 * What a task cost; a failed task the balance had paid was refunded (relay: once, to user and
 * token). A plan-paid task shows what its plan window paid, marked as such (a failed one went
 * back to the window only while that window was current, so it is not called refunded).
 */
export default function TaskCost({ quota, planQuota = 0, failed }: { quota: number; planQuota?: number; failed: boolean }) {
  const { t } = useTranslation('task');
  if (planQuota > 0) {
    return (
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <QuotaText quota={planQuota} />
        <StatusChip label={t('planPaid')} color="info" />
      </Stack>
    );
  }
  if (!quota) return <>{failed ? t('notCharged') : '-'}</>;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <QuotaText quota={quota} sx={failed ? { textDecoration: 'line-through' } : undefined} />
      {failed && <StatusChip label={t('refunded')} color="success" />}
    </Stack>
  );
}
