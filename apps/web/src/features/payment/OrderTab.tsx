import { useState } from 'react';
import { MenuItem, TextField, Tooltip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ORDER_STATUSES, type Order, type Page } from '@one-hub/contract';
import { api } from '../../lib/api';
import { CopyButton, DataTable, FilterBar, QuotaText, StatusChip, TimeText, pagedTableProps, usePagedList, type DataColumn } from '../../components/data';
import DateTimeRangeField from '../../components/dates/DateTimeRangeField';
import { orderStatusColor } from './payment-data';

interface Filters {
  gateway_id: string;
  user_id: string;
  trade_no: string;
  gateway_no: string;
  status: string;
  start_timestamp: number;
  end_timestamp: number;
}
const blank = (): Filters => ({ gateway_id: '', user_id: '', trade_no: '', gateway_no: '', status: '', start_timestamp: 0, end_timestamp: Math.floor(Date.now() / 1000) + 3600 });
const fetchOrders = (q: { page: number; size: number; order?: string; filters: Filters }) =>
  api<Page<Order>>('/api/payment/order', { query: { page: q.page, size: q.size, order: q.order, ...q.filters, start_timestamp: q.filters.start_timestamp || undefined } });

const money = (n: number) => n.toFixed(2);

/** Online top-up orders of every user (console-screens §3.15, `#order`). */
export default function OrderTab() {
  const { t } = useTranslation('payment');
  const list = usePagedList<Order, Filters>({ key: 'order', fetch: fetchOrders, initialFilters: blank(), initialOrder: '-created_at' });
  const [draft, setDraft] = useState<Filters>(list.filters);
  const reset = () => {
    const b = blank();
    setDraft(b);
    list.setFilters(b);
    list.refresh();
  };
  const statusLabel = (s: string) => ((ORDER_STATUSES as readonly string[]).includes(s) ? t(`status.${s}`) : t('status.unknown'));

  // What was paid and its state first; the gateway's bookkeeping last, so a laptop screen shows what matters.
  const columns: DataColumn<Order>[] = [
    { field: 'created_at', header: t('createdAt'), sortable: true, render: (o) => <TimeText value={o.created_at} stacked /> },
    { field: 'user_id', header: t('userId'), sortable: true },
    {
      field: 'trade_no',
      header: t('tradeNo'),
      render: (o) => (
        <Typography variant="body2" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
          {o.trade_no} <CopyButton text={o.trade_no} toastLabel={t('tradeNo')} />
        </Typography>
      ),
    },
    { field: 'amount', header: t('amount'), render: (o) => `$${o.amount}` },
    { field: 'order_amount', header: t('orderAmount'), render: (o) => `${money(o.order_amount)} ${o.order_currency}` },
    {
      field: 'status',
      header: t('statusTitle'),
      sortable: true,
      // A failed order says why (the notified amount or currency did not match).
      render: (o) =>
        o.fail_reason ? (
          <Tooltip title={o.fail_reason}>
            <span data-testid={`order-fail-${o.trade_no}`}>
              <StatusChip label={statusLabel(o.status)} color={orderStatusColor(o.status)} />
            </span>
          </Tooltip>
        ) : (
          <StatusChip label={statusLabel(o.status)} color={orderStatusColor(o.status)} />
        ),
    },
    { field: 'fee', header: t('fee'), hideOnPhone: true, render: (o) => `$${money(o.fee)}` },
    { field: 'discount', header: t('discount'), hideOnPhone: true, hideBelow: 'xl', render: (o) => `${money(o.discount)} ${o.order_currency}` },
    { field: 'quota', header: t('quota'), hideOnPhone: true, render: (o) => <QuotaText quota={o.quota} /> },
    { field: 'gateway_id', header: t('gatewayId'), sortable: true, hideOnPhone: true, hideBelow: 'xl' },
    { field: 'gateway_no', header: t('gatewayNo'), hideBelow: 'xl', render: (o) => o.gateway_no || '—' },
  ];

  const text = (field: 'gateway_id' | 'user_id' | 'trade_no' | 'gateway_no', label: string, numeric = false) => (
    <TextField size="small" label={label} type={numeric ? 'number' : 'text'} value={draft[field]} onChange={(e) => setDraft({ ...draft, [field]: e.target.value })} slotProps={{ htmlInput: { 'data-testid': `order-filter-${field}` } }} />
  );
  return (
    <>
      <FilterBar onSearch={() => list.setFilters(draft)} onReset={reset}>
        {text('gateway_id', t('gatewayId'), true)}
        {text('user_id', t('userId'), true)}
        {text('trade_no', t('tradeNo'))}
        {text('gateway_no', t('gatewayNo'))}
        <TextField size="small" select label={t('statusTitle')} value={draft.status} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
          <MenuItem value="">{t('all')}</MenuItem>
          {ORDER_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`status.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <DateTimeRangeField
          testId="order-filter-time"
          start={draft.start_timestamp}
          end={draft.end_timestamp}
          onChange={(start_timestamp, end_timestamp) => setDraft({ ...draft, start_timestamp, end_timestamp })}
          startLabel={t('startTime')}
          endLabel={t('endTime')}
        />
      </FilterBar>
      <DataTable
        columns={columns}
        rowKey={(o) => o.id}
        emptyText={t('emptyOrders')}
        {...pagedTableProps(list)}
      />
    </>
  );
}
