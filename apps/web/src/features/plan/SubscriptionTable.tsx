import { useState } from 'react';
import { Card, IconButton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import Cancel from '@mui/icons-material/CancelOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, StatusChip, TimeText, useFormatQuota, type DataColumn } from '../../components/data';

/** Recent subscriptions (of one user when filtered), with their window spend; an admin may cancel one. */
export default function SubscriptionTable() {
  const { t } = useTranslation('plan');
  const format = useFormatQuota();
  const [userId, setUserId] = useState('');
  const filter = Number(userId) > 0 ? Number(userId) : undefined;
  const list = useQuery({ queryKey: ['plan-subscriptions', filter], queryFn: () => api<Subscription[]>('/api/plan/subscription', { query: { user_id: filter } }) });
  const [cancelling, setCancelling] = useState<Subscription | null>(null);
  const cancel = async () => {
    try {
      await api(`/api/plan/subscription/${cancelling!.id}`, { method: 'DELETE' });
      showSuccess(t('subs.cancelled'));
      setCancelling(null);
      void list.refetch();
    } catch (e) {
      showError(e);
    }
  };
  const columns: DataColumn<Subscription>[] = [
    { field: 'id', header: t('id') },
    { field: 'user_id', header: t('user'), render: (s) => (s.username ? `${s.username} (#${s.user_id})` : `#${s.user_id}`) },
    { field: 'plan_name', header: t('field.name') },
    { field: 'status', header: t('status'), render: (s) => <StatusChip label={t(`subs.status.${s.status}`)} color={s.status === 'active' ? 'success' : 'orange'} /> },
    { field: 'source', header: t('subs.source'), hideOnPhone: true, render: (s) => t(`subs.sources.${s.source}`) },
    { field: 'window_used', header: t('windowQuota'), render: (s) => `${format(s.window_used)} / ${format(s.window_quota)}` },
    { field: 'end_at', header: t('subs.end'), render: (s) => <TimeText value={s.end_at} /> },
    {
      field: 'actions',
      header: t('actions'),
      align: 'right',
      render: (s) =>
        s.status === 'active' || s.status === 'pending' ? (
          <Tooltip title={t('subs.cancel')}>
            <IconButton size="small" aria-label={t('subs.cancel')} onClick={() => setCancelling(s)}>
              <Cancel fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null,
    },
  ];
  return (
    <Card sx={{ mt: 2 }} data-testid="plan-subscriptions">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ p: 2, alignItems: { sm: 'center' } }}>
        <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          {t('subs.title')}
        </Typography>
        <TextField size="small" type="number" label={t('userId')} value={userId} onChange={(e) => setUserId(e.target.value)} sx={{ maxWidth: 200 }} />
      </Stack>
      <DataTable columns={columns} rows={list.data ?? []} rowKey={(s) => s.id} loading={list.isLoading} error={list.error} onRetry={() => void list.refetch()} emptyText={t('subs.empty')} />
      <ConfirmDialog open={cancelling !== null} title={t('subs.cancel')} body={t('subs.cancelBody', { id: cancelling?.id, user: cancelling?.user_id })} danger onConfirm={() => void cancel()} onClose={() => setCancelling(null)} />
    </Card>
  );
}
