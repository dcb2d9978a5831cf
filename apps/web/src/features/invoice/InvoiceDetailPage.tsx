import { Box, Button, Card, Chip, Stack, Typography } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { InvoiceLine } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useAppSelector } from '../../store';
import { DataTable, PageHeader, QuotaText, useFormatQuota, type DataColumn } from '../../components/data';
import { countText, monthOf, monthStart, shareText, sumLines } from './invoice-format';
import { CountCell, DurationCell, useDurationText } from './InvoiceCells';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box sx={{ p: 2, borderRadius: 2, bgcolor: 'action.hover', minWidth: 0 }} data-testid={testId}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" noWrap sx={{ fontWeight: 700 }}>
        {value}
      </Typography>
    </Box>
  );
}

/** One month's bill: who, the month's totals and a line per model (console-screens §12). */
export default function InvoiceDetailPage() {
  const { t } = useTranslation('invoice');
  const navigate = useNavigate();
  const date = monthStart(useParams().date);
  const user = useAppSelector((s) => s.account.user);
  const formatQuota = useFormatQuota();
  const duration = useDurationText();
  const detail = useQuery({
    queryKey: ['invoice-detail', date],
    queryFn: () => api<InvoiceLine[]>('/api/user/invoice/detail', { query: { date: date! } }),
    enabled: date !== null,
    retry: false,
  });
  if (!date) return <Navigate to="/panel/invoice" replace />;

  const lines = detail.data ?? [];
  const total = sumLines(lines);
  const shown = (text: string) => (detail.data ? text : '—');
  const columns: DataColumn<InvoiceLine>[] = [
    { field: 'model_name', header: t('model'), render: (r) => <Typography variant="body2" sx={{ fontWeight: 700, wordBreak: 'break-all' }}>{r.model_name}</Typography> },
    { field: 'request_count', header: t('requests'), align: 'right', render: (r) => <CountCell value={r.request_count} /> },
    { field: 'prompt_tokens', header: t('promptTokens'), align: 'right', render: (r) => <CountCell value={r.prompt_tokens} /> },
    { field: 'completion_tokens', header: t('completionTokens'), align: 'right', render: (r) => <CountCell value={r.completion_tokens} /> },
    { field: 'request_time', header: t('requestTime'), align: 'right', hideOnPhone: true, render: (r) => <DurationCell ms={r.request_time} /> },
    { field: 'quota', header: t('amount'), align: 'right', render: (r) => <QuotaText quota={r.quota} digits={4} sx={{ fontWeight: 600 }} /> },
    { field: 'share', header: t('share'), align: 'right', hideOnPhone: true, render: (r) => <Typography variant="body2">{shareText(r.quota, total.quota)}</Typography> },
  ];

  return (
    <Box data-testid="invoice-detail">
      <PageHeader
        title={t('detailTitle', { month: monthOf(date) })}
        subtitle={t('detailSubtitle')}
        actions={
          <Button variant="outlined" startIcon={<ArrowBack />} onClick={() => navigate('/panel/invoice')}>
            {t('back')}
          </Button>
        }
      />
      <Card sx={{ p: 2, mb: 2 }}>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 700 }} data-testid="invoice-user">
            {user?.display_name || user?.username}
          </Typography>
          {user?.display_name && user.display_name !== user.username && (
            <Typography variant="body2" color="text.secondary">
              @{user.username}
            </Typography>
          )}
          {user?.group && <Chip size="small" label={t('group', { group: user.group })} />}
          {user?.email && (
            <Typography variant="body2" color="text.secondary">
              {user.email}
            </Typography>
          )}
        </Stack>
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' } }}>
          <Figure testId="invoice-total-amount" label={t('amount')} value={shown(formatQuota(total.quota, 4))} />
          <Figure testId="invoice-total-requests" label={t('requests')} value={shown(countText(total.request_count))} />
          <Figure testId="invoice-total-prompt" label={t('promptTokens')} value={shown(countText(total.prompt_tokens))} />
          <Figure testId="invoice-total-completion" label={t('completionTokens')} value={shown(countText(total.completion_tokens))} />
          <Figure testId="invoice-total-time" label={t('requestTime')} value={shown(duration(total.request_time))} />
        </Box>
      </Card>
      <Card>
        <Typography variant="subtitle1" sx={{ px: 2, pt: 2, fontWeight: 700 }}>
          {t('byModel')}
        </Typography>
        <DataTable
          columns={columns}
          rows={lines}
          rowKey={(r) => r.model_name}
          loading={detail.isFetching}
          error={detail.error ?? undefined}
          onRetry={() => void detail.refetch()}
          emptyText={t('emptyMonth')}
        />
      </Card>
    </Box>
  );
}
