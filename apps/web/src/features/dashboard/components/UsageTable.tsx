import { Card, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DataTable, useFormatQuota, type DataColumn } from '../../../components/data';
import type { DayTotals } from '../dashboard-data';

/** The week's daily totals, newest first (the request count is shown, unlike the original, §14.1). */
export default function UsageTable({ days, loading, error }: { days: DayTotals[]; loading: boolean; error?: unknown }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatQuota();
  const columns: DataColumn<DayTotals>[] = [
    { field: 'date', header: t('table.date'), align: 'left' },
    { field: 'requests', header: t('table.requests') },
    { field: 'quota', header: t('table.amount'), render: (d) => format(d.quota) },
    { field: 'tokens', header: t('table.tokens'), hideOnPhone: true, render: (d) => `${d.promptTokens}/${d.completionTokens}` },
    { field: 'requestTime', header: t('table.time'), hideOnPhone: true, render: (d) => (d.requestTime / 1000).toFixed(3) },
  ];
  return (
    <Card sx={{ p: 2.5 }} data-testid="usage-table">
      <Typography variant="h6" sx={{ mb: 1 }}>
        {t('weekUsage')}
      </Typography>
      <DataTable columns={columns} rows={[...days].reverse()} rowKey={(d) => d.date} loading={loading} error={error} emptyText={t('noData')} />
    </Card>
  );
}
