import { useEffect, useState } from 'react';
import { Box, Button, MenuItem, Switch, TextField, Tooltip } from '@mui/material';
import Add from '@mui/icons-material/Add';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { PAYMENT_TYPES, type Page, type PaymentGateway } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, FilterBar, RowMenu, StatusChip, TimeText, pagedTableProps, usePagedList, type DataColumn } from '../../components/data';
import GatewayDialog from './GatewayDialog';
import GatewayIcon from '../../components/GatewayIcon';
import { feePercent } from './payment-data';

interface Filters {
  name: string;
  uuid: string;
  type: string;
}
const EMPTY: Filters = { name: '', uuid: '', type: '' };
const fetchGateways = (q: { page: number; size: number; order?: string; filters: Filters }) =>
  api<Page<PaymentGateway>>('/api/payment/', { query: { page: q.page, size: q.size, order: q.order, ...q.filters } });

/** Inline sort number: saved on blur when changed; negative values are refused. */
function SortField({ gateway, onSave }: { gateway: PaymentGateway; onSave: (sort: number) => void }) {
  const { t } = useTranslation('payment');
  const [value, setValue] = useState(String(gateway.sort));
  useEffect(() => setValue(String(gateway.sort)), [gateway.sort]);
  const commit = () => {
    const n = Number(value);
    if (value.trim() === '' || n === gateway.sort) return setValue(String(gateway.sort));
    if (!Number.isInteger(n) || n < 0) {
      showError(t('sortInvalid'));
      return setValue(String(gateway.sort));
    }
    onSave(n);
  };
  return (
    <TextField
      size="small"
      type="number"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()}
      sx={{ width: 88 }}
      slotProps={{ htmlInput: { min: 0, 'aria-label': t('sortOf', { name: gateway.name }) } }}
    />
  );
}

/** Gateway settings (console-screens §3.15, `#gateway`). */
export default function GatewayTab() {
  const { t } = useTranslation('payment');
  const list = usePagedList<PaymentGateway, Filters>({ key: 'payment', fetch: fetchGateways, initialFilters: EMPTY });
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [dialog, setDialog] = useState<{ id?: number } | null>(null);
  const [deleting, setDeleting] = useState<PaymentGateway | null>(null);

  const patch = async (id: number, change: { sort?: number; enable?: boolean }) => {
    try {
      await api('/api/payment/', { method: 'PUT', json: { id, ...change } });
      showSuccess(t('updated'));
      list.reload();
    } catch (e) {
      showError(e);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await api(`/api/payment/${deleting.id}`, { method: 'DELETE' });
      showSuccess(t('deleted'));
      setDeleting(null);
      list.reload();
    } catch (e) {
      showError(e);
    }
  };
  const reset = () => {
    setDraft(EMPTY);
    list.setFilters(EMPTY);
    list.refresh();
  };

  const typeLabel = (type: string) => ((PAYMENT_TYPES as readonly string[]).includes(type) ? t(`types.${type}`) : t('types.unknown'));
  const columns: DataColumn<PaymentGateway>[] = [
    { field: 'id', header: t('id'), sortable: true },
    { field: 'uuid', header: t('uuid'), sortable: true, hideOnPhone: true, render: (g) => <StatusChip label={g.uuid.slice(0, 8)} title={g.uuid} copyText={g.uuid} /> },
    { field: 'name', header: t('name') },
    { field: 'type', header: t('type'), sortable: true, render: (g) => typeLabel(g.type) },
    { field: 'icon', header: t('icon'), hideOnPhone: true, render: (g) => <GatewayIcon src={g.icon} /> },
    { field: 'fixed_fee', header: t('fixedFee'), hideOnPhone: true },
    { field: 'percent_fee', header: t('percentFee'), hideOnPhone: true, render: (g) => feePercent(g.percent_fee) },
    { field: 'sort', header: t('sort'), sortable: true, render: (g) => <SortField gateway={g} onSave={(sort) => void patch(g.id, { sort })} /> },
    {
      field: 'enable',
      header: t('enable'),
      sortable: true,
      render: (g) => (
        <Tooltip title={g.enable ? t('enabled') : t('disabled')}>
          <Switch size="small" checked={g.enable} onChange={() => void patch(g.id, { enable: !g.enable })} slotProps={{ input: { 'aria-label': t('enableOf', { name: g.name }) } }} />
        </Tooltip>
      ),
    },
    { field: 'created_at', header: t('createdAt'), sortable: true, hideBelow: 'lg', render: (g) => <TimeText value={g.created_at} /> },
    {
      field: 'actions',
      header: t('actions'),
      align: 'right',
      pinned: true,
      render: (g) => (
        <RowMenu
          testId={`gateway-menu-${g.id}`}
          items={[
            { label: t('edit'), icon: <EditOutlined fontSize="small" />, onClick: () => setDialog({ id: g.id }) },
            { label: t('delete'), icon: <DeleteOutline fontSize="small" />, danger: true, onClick: () => setDeleting(g) },
          ]}
        />
      ),
    },
  ];

  const text = (field: 'name' | 'uuid', label: string) => (
    <TextField size="small" label={label} value={draft[field]} onChange={(e) => setDraft({ ...draft, [field]: e.target.value })} slotProps={{ htmlInput: { 'data-testid': `gateway-filter-${field}` } }} />
  );
  return (
    <>
      <FilterBar
        onSearch={() => list.setFilters(draft)}
        onReset={reset}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setDialog({})} data-testid="gateway-create">
            {t('create')}
          </Button>
        }
      >
        {text('name', t('name'))}
        {text('uuid', t('uuid'))}
        <TextField size="small" select label={t('type')} value={draft.type} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
          <MenuItem value="">{t('all')}</MenuItem>
          {PAYMENT_TYPES.map((p) => (
            <MenuItem key={p} value={p}>
              {t(`types.${p}`)}
            </MenuItem>
          ))}
        </TextField>
      </FilterBar>
      <DataTable
        columns={columns}
        rowKey={(g) => g.id}
        emptyText={t('emptyGateways')}
        {...pagedTableProps(list)}
      />
      <GatewayDialog open={dialog !== null} id={dialog?.id} onClose={() => setDialog(null)} onSaved={list.reload} />
      <ConfirmDialog
        open={deleting !== null}
        danger
        title={t('deleteTitle')}
        body={t('deleteBody', { name: deleting?.name ?? '' })}
        confirmText={t('delete')}
        onClose={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </>
  );
}
