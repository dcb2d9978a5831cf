import { Box, Button, Card, Stack, Typography } from '@mui/material';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { InvoiceMonth, Page } from '@one-hub/contract';
import { api } from '../../lib/api';
import { DataTable, PageHeader, QuotaText, pagedTableProps, usePagedList, RefreshButton, type DataColumn } from '../../components/data';
import { countText, monthOf } from './invoice-format';
import { CountCell, DurationCell } from './InvoiceCells';

const fetchMonths = (q: { page: number; size: number; order?: string }) => api<Page<InvoiceMonth>>('/api/user/invoice', { query: { page: q.page, size: q.size, order: q.order } });

/** The signed-in user's monthly bills (console-screens §12), newest first. */
export default function InvoicePage() {
  const { t } = useTranslation('invoice');
  const navigate = useNavigate();
  const list = usePagedList<InvoiceMonth, object>({ key: 'invoice', fetch: fetchMonths, initialFilters: {}, initialOrder: '-date' });

  const columns: DataColumn<InvoiceMonth>[] = [
    { field: 'date', header: t('month'), sortable: true, render: (r) => <Typography variant="body2" sx={{ fontWeight: 700 }}>{monthOf(r.date)}</Typography> },
    { field: 'quota', header: t('amount'), sortable: true, render: (r) => <QuotaText quota={r.quota} digits={4} /> },
    {
      field: 'prompt_tokens',
      header: t('tokens'),
      sortable: true,
      render: (r) => (
        <Stack>
          <Typography variant="body2">{t('promptShort', { value: countText(r.prompt_tokens) })}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('completionShort', { value: countText(r.completion_tokens) })}
          </Typography>
        </Stack>
      ),
    },
    { field: 'request_count', header: t('requests'), sortable: true, render: (r) => <CountCell value={r.request_count} /> },
    { field: 'request_time', header: t('requestTime'), sortable: true, hideOnPhone: true, render: (r) => <DurationCell ms={r.request_time} /> },
    {
      field: 'actions',
      header: t('actions'),
      align: 'right',
      pinned: true,
      render: (r) => (
        <Button size="small" startIcon={<VisibilityOutlined />} onClick={() => navigate(`/panel/invoice/detail/${r.date}`)} data-testid={`invoice-view-${monthOf(r.date)}`}>
          {t('view')}
        </Button>
      ),
    },
  ];

  return (
    <Box data-testid="invoice-page">
      <PageHeader subtitle={t('subtitle')} />
      <Card>
        <Stack direction="row" sx={{ p: 2, pb: 1, alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {t('hint')}
          </Typography>
          <RefreshButton label={t('refresh')} onClick={list.refresh} />
        </Stack>
        <DataTable
          columns={columns}
          rowKey={(r) => r.date}
          emptyText={t('empty')}
          {...pagedTableProps(list)}
        />
      </Card>
    </Box>
  );
}
