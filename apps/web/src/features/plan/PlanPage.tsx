import { useState } from 'react';
import { Box, Button, Card, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import Add from '@mui/icons-material/Add';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import CardGiftcard from '@mui/icons-material/CardGiftcardOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, PageHeader, RefreshButton, RowMenu, StatusChip, useFormatQuota, type DataColumn } from '../../components/data';
import PlanDialog from './PlanDialog';
import SubscriptionTable from './SubscriptionTable';

/** Subscription plans an administrator sells and grants (issue 21.1). */
export default function PlanPage() {
  const { t } = useTranslation('plan');
  const format = useFormatQuota();
  const plans = useQuery({ queryKey: ['plans'], queryFn: () => api<Plan[]>('/api/plan/') });
  const [editing, setEditing] = useState<{ plan?: Plan } | null>(null);
  const [deleting, setDeleting] = useState<Plan | null>(null);
  const [granting, setGranting] = useState<Plan | null>(null);
  const [userId, setUserId] = useState('');

  const remove = async () => {
    try {
      await api(`/api/plan/${deleting!.id}`, { method: 'DELETE' });
      showSuccess(t('deleted'));
      setDeleting(null);
      void plans.refetch();
    } catch (e) {
      showError(e);
    }
  };
  const grant = async () => {
    try {
      await api('/api/plan/grant', { json: { user_id: Number(userId), plan_id: granting!.id } });
      showSuccess(t('granted'));
      setGranting(null);
    } catch (e) {
      showError(e);
    }
  };

  const columns: DataColumn<Plan>[] = [
    { field: 'id', header: t('id') },
    { field: 'name', header: t('field.name') },
    { field: 'price', header: t('field.price'), render: (p) => `${p.price.toFixed(2)} ${p.currency}` },
    { field: 'duration', header: t('period'), render: (p) => t(`every.${p.duration_kind}`, { count: p.duration_count }) },
    { field: 'window_quota', header: t('windowQuota'), render: (p) => `${format(p.window_quota)} / ${t(`window.${p.window_kind}`)}` },
    { field: 'models', header: t('field.models'), hideOnPhone: true, render: (p) => (p.models.length ? p.models.join(', ') : t('all')) },
    { field: 'status', header: t('status'), render: (p) => (
      <Stack direction="row" spacing={0.5}>
        <StatusChip label={p.enabled ? t('enabled') : t('disabled')} color={p.enabled ? 'success' : 'orange'} />
        {!p.public && <StatusChip label={t('private')} color="orange" />}
      </Stack>
    ) },
    {
      field: 'actions',
      header: t('actions'),
      align: 'right',
      pinned: true,
      render: (p) => (
        <RowMenu
          items={[
            { label: t('edit'), icon: <EditOutlined fontSize="small" />, onClick: () => setEditing({ plan: p }) },
            { label: t('grant'), icon: <CardGiftcard fontSize="small" />, onClick: () => { setUserId(''); setGranting(p); } },
            { label: t('delete'), icon: <DeleteOutline fontSize="small" />, danger: true, onClick: () => setDeleting(p) },
          ]}
        />
      ),
    },
  ];

  return (
    <Box data-testid="plan-page">
      <PageHeader
        subtitle={t('subtitle')}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({})} data-testid="plan-create">
            {t('create')}
          </Button>
        }
      />
      <Card>
        <Stack direction="row" sx={{ p: 2, justifyContent: 'flex-end' }}>
          <RefreshButton label={t('refresh')} onClick={() => void plans.refetch()} />
        </Stack>
        <DataTable columns={columns} rows={plans.data ?? []} rowKey={(p) => p.id} loading={plans.isLoading} error={plans.error} onRetry={() => void plans.refetch()} emptyText={t('empty')} />
      </Card>
      <SubscriptionTable />
      <PlanDialog open={editing !== null} plan={editing?.plan} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); void plans.refetch(); }} />
      <ConfirmDialog open={deleting !== null} title={t('delete')} body={t('deleteBody', { name: deleting?.name })} danger onConfirm={() => void remove()} onClose={() => setDeleting(null)} />
      <Dialog open={granting !== null} onClose={() => setGranting(null)} maxWidth="xs" fullWidth>
        <DialogTitle>{t('grantTitle', { name: granting?.name })}</DialogTitle>
        <DialogContent dividers>
          <TextField size="small" fullWidth type="number" label={t('userId')} value={userId} onChange={(e) => setUserId(e.target.value)} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setGranting(null)}>{t('cancel')}</Button>
          <Button variant="contained" disabled={!(Number(userId) > 0)} onClick={() => void grant()}>
            {t('grant')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
