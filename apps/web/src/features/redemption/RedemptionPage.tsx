import { useState } from 'react';
import { Box, Button, Card, InputAdornment, Stack, Switch, TextField, Tooltip } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Search from '@mui/icons-material/Search';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { REDEMPTION_STATUS, type Page, type Redemption } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, CopyButton, DataTable, PageHeader, QuotaText, RowMenu, StatusChip, TimeText, pagedTableProps, usePagedList, RefreshButton, type DataColumn } from '../../components/data';
import RedemptionDialog from './RedemptionDialog';

interface Filters {
  keyword: string;
}
const EMPTY: Filters = { keyword: '' };
const fetchCodes = (q: { page: number; size: number; order?: string; filters: Filters }) =>
  api<Page<Redemption>>('/api/redemption/', { query: { page: q.page, size: q.size, order: q.order, keyword: q.filters.keyword } });

/** Redemption codes (console-screens §3.5). */
export default function RedemptionPage() {
  const { t } = useTranslation('redemption');
  const list = usePagedList<Redemption, Filters>({ key: 'redemption', fetch: fetchCodes, initialFilters: EMPTY });
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<{ id?: number } | null>(null);
  const [deleting, setDeleting] = useState<Redemption | null>(null);

  const toggle = async (r: Redemption) => {
    const status = r.status === REDEMPTION_STATUS.unused ? REDEMPTION_STATUS.disabled : REDEMPTION_STATUS.unused;
    try {
      await api('/api/redemption/', { method: 'PUT', query: { status_only: true }, json: { id: r.id, status } });
      showSuccess(t('updated'));
      list.reload();
    } catch (e) {
      showError(e);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await api(`/api/redemption/${deleting.id}`, { method: 'DELETE' });
      showSuccess(t('deleted'));
      setDeleting(null);
      list.reload();
    } catch (e) {
      showError(e);
    }
  };

  const status = (r: Redemption) => {
    if (r.status === REDEMPTION_STATUS.used) return <StatusChip label={t('used')} color="success" variant="filled" />;
    if (r.status === REDEMPTION_STATUS.unused || r.status === REDEMPTION_STATUS.disabled) {
      return (
        <Tooltip title={r.status === REDEMPTION_STATUS.unused ? t('enabled') : t('disabled')}>
          <Switch size="small" checked={r.status === REDEMPTION_STATUS.unused} onChange={() => void toggle(r)} slotProps={{ input: { 'aria-label': t('statusOf', { name: r.name }) } }} />
        </Tooltip>
      );
    }
    return <StatusChip label={t('unknown')} color="orange" />;
  };

  const columns: DataColumn<Redemption>[] = [
    { field: 'id', header: t('id'), sortable: true },
    { field: 'name', header: t('name'), sortable: true },
    { field: 'status', header: t('status'), sortable: true, render: status },
    { field: 'quota', header: t('quota'), sortable: true, render: (r) => (r.plan_id ? <StatusChip label={t('planCode', { id: r.plan_id })} color="primary" /> : <QuotaText quota={r.quota} />) },
    { field: 'created_time', header: t('createdTime'), sortable: true, hideOnPhone: true, render: (r) => <TimeText value={r.created_time} /> },
    { field: 'redeemed_time', header: t('redeemedTime'), sortable: true, render: (r) => <TimeText value={r.redeemed_time} fallback={t('notRedeemed')} /> },
    {
      field: 'actions',
      header: t('actions'),
      align: 'right',
      pinned: true,
      render: (r) => (
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
          <CopyButton text={r.key} label={t('copy')} toastLabel={t('code')} />
          <RowMenu
            items={[
              { label: t('edit'), icon: <EditOutlined fontSize="small" />, disabled: r.status === REDEMPTION_STATUS.used, onClick: () => setDialog({ id: r.id }) },
              { label: t('delete'), icon: <DeleteOutline fontSize="small" />, danger: true, onClick: () => setDeleting(r) },
            ]}
          />
        </Stack>
      ),
    },
  ];

  const search = () => list.setFilters({ keyword });
  return (
    <Box data-testid="redemption-page">
      <PageHeader
        subtitle={t('subtitle')}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setDialog({})} data-testid="redemption-create">
            {t('create')}
          </Button>
        }
      />
      <Card>
        <Stack direction="row" spacing={1} sx={{ p: 2, alignItems: 'center' }}>
          <TextField
            size="small"
            fullWidth
            placeholder={t('searchPlaceholder')}
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && search()}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> }, htmlInput: { 'data-testid': 'redemption-keyword', 'aria-label': t('searchPlaceholder') } }}
            sx={{ maxWidth: 420 }}
          />
          <Box sx={{ flex: 1 }} />
          <RefreshButton label={t('refresh')} onClick={list.refresh} />
        </Stack>
        <DataTable
          columns={columns}
          rowKey={(r) => r.id}
          emptyText={t('empty')}
          {...pagedTableProps(list)}
        />
      </Card>
      <RedemptionDialog open={dialog !== null} id={dialog?.id} onClose={() => setDialog(null)} onSaved={list.reload} />
      <ConfirmDialog
        open={deleting !== null}
        danger
        title={t('deleteTitle')}
        body={t('deleteBody', { name: deleting?.name ?? '' })}
        confirmText={t('delete')}
        onClose={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </Box>
  );
}
