import { useState } from 'react';
import { Alert, Box, Button, ButtonGroup, Card, Chip, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Layers from '@mui/icons-material/Layers';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWallet';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import PowerSettingsNew from '@mui/icons-material/PowerSettingsNew';
import PowerOff from '@mui/icons-material/PowerOff';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Channel, Page } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showInfo, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, FilterBar, PageHeader, StatusChip, pagedTableProps, usePagedList, type DataColumn } from '../../components/data';
import BatchDialog from './BatchDialog';
import ChannelActions from './ChannelActions';
import ChannelDetail from './ChannelDetail';
import ChannelDialog, { type ChannelDialogMode } from './ChannelDialog';
import ChannelFilters, { NO_FILTERS, filterQuery, type ChannelFilterState } from './ChannelFilters';
import TagSubTable from './TagSubTable';
import { BalanceCell, InlineNumber, ResponseTimeChip, StatusCell } from './channel-cells';
import { groupList, typeColor, typeName } from './channel-ui';
import { useChannelLookups } from './use-channel-lookups';
import { useGroupNames } from '../../lib/use-group-names';
import { useJumpQuery } from '../../lib/use-jump-query';

type Pending = { title: string; body?: string; danger?: boolean; run: () => Promise<void> };

function fetchChannels(q: { page: number; size: number; order?: string; filters: ChannelFilterState }) {
  return api<Page<Channel>>('/api/channel/', { query: { page: q.page, size: q.size, order: q.order, ...filterQuery(q.filters) } });
}

/** Channels (console-screens §3.3). */
export default function ChannelPage() {
  const { t } = useTranslation('channel');
  const lookups = useChannelLookups();
  const list = usePagedList<Channel, ChannelFilterState>({ key: 'channel', fetch: fetchChannels, initialFilters: NO_FILTERS });
  const [draft, setDraft] = useState<ChannelFilterState>(NO_FILTERS);
  useJumpQuery((name) => {
    setDraft({ ...NO_FILTERS, name });
    list.setFilters({ ...NO_FILTERS, name });
  });
  const [dialog, setDialog] = useState<ChannelDialogMode | null>(null);
  const [batch, setBatch] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const queryClient = useQueryClient();
  const grouped = list.filters.filter_tag !== 1 && !list.filters.tag;
  /** The list and every open tag sub-table (a tag action changes both). */
  const reload = () => {
    list.reload();
    void queryClient.invalidateQueries({ queryKey: ['channel-tag-list'] });
  };
  const isTagRow = (c: Channel) => grouped && Boolean(c.tag);

  const call = async (fn: () => Promise<unknown>, done?: string) => {
    try {
      await fn();
      if (done) showSuccess(done);
      reload();
    } catch (e) {
      showError(e);
    }
  };
  const confirmThen = (p: Pending) => setPending(p);
  const savePriority = (c: Channel, v: number) =>
    isTagRow(c) ? call(() => api(`/api/channel_tag/${encodeURIComponent(c.tag)}/priority`, { method: 'PUT', json: { type: 'priority', value: v } }), t('saved')) : call(() => api('/api/channel/', { method: 'PUT', json: { id: c.id, priority: v } }), t('saved'));
  const saveWeight = (c: Channel, v: number) => call(() => api('/api/channel/', { method: 'PUT', json: { id: c.id, weight: v } }), t('saved'));
  const tagStatus = (tag: string, enable: boolean) =>
    confirmThen({ title: enable ? t('tagEnableAll') : t('tagDisableAll'), run: () => call(() => api(`/api/channel_tag/${encodeURIComponent(tag)}/status/${enable ? 'enable' : 'disable'}`, { method: 'PUT' }), t('saved')) });

  const groupNames = useGroupNames();
  const columns: DataColumn<Channel>[] = [
    { field: 'id', header: t('id'), sortable: true, render: (c) => (isTagRow(c) ? <StatusChip label={t('tagChip')} color="secondary" variant="filled" /> : c.id) },
    { field: 'name', header: t('name'), sortable: true, maxWidth: 180, render: (c) => (isTagRow(c) ? <Typography component="span" sx={{ fontWeight: 700 }} title={c.tag}>{c.tag}</Typography> : <span title={c.name}>{c.name}</span>) },
    { field: 'group', header: t('group'), hideOnPhone: true, hideBelow: 'laptop', render: (c) => <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>{groupList(c.group).map((g) => <StatusChip key={g} label={groupNames.get(g) ?? g} title={g} color="info" />)}</Box> },
    { field: 'type', header: t('type'), sortable: true, render: (c) => <StatusChip label={typeName(c.type) ?? t('unknownType')} color={typeColor(c.type)} variant="outlined" /> },
    {
      field: 'status',
      header: t('statusLabel'),
      sortable: true,
      render: (c) =>
        isTagRow(c) ? (
          <Stack direction="row">
            <Tooltip title={t('tagEnableAll')}>
              <IconButton size="small" color="success" aria-label={t('tagEnableAll')} onClick={() => tagStatus(c.tag, true)}>
                <PowerSettingsNew fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('tagDisableAll')}>
              <IconButton size="small" color="error" aria-label={t('tagDisableAll')} onClick={() => tagStatus(c.tag, false)}>
                <PowerOff fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
        ) : (
          <StatusCell channel={c} onChanged={list.reload} />
        ),
    },
    { field: 'response_time', header: t('responseTime'), sortable: true, render: (c) => (isTagRow(c) ? '—' : <ResponseTimeChip channel={c} />) },
    { field: 'balance', header: t('usedBalance'), hideOnPhone: true, hideBelow: 'xl', render: (c) => (isTagRow(c) ? '—' : <BalanceCell channel={c} />) },
    { field: 'priority', header: t('priority'), sortable: true, render: (c) => <InlineNumber value={c.priority ?? 0} min={0} label={t('priority')} onSave={(v) => savePriority(c, v)} /> },
    { field: 'weight', header: t('weight'), sortable: true, render: (c) => (isTagRow(c) ? '—' : <InlineNumber value={c.weight ?? 1} min={1} label={t('weight')} onSave={(v) => saveWeight(c, v)} />) },
    {
      field: 'actions',
      header: t('actions'),
      align: 'right',
      pinned: true,
      render: (c) =>
        isTagRow(c) ? (
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Tooltip title={t('editTag')}>
              <IconButton size="small" aria-label={t('editTag')} onClick={() => setDialog({ kind: 'tag', tag: c.tag })}>
                <EditOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('deleteTag')}>
              <IconButton
                size="small"
                color="error"
                aria-label={t('deleteTag')}
                onClick={() => confirmThen({ title: t('deleteTag'), body: t('deleteTagBody', { tag: c.tag }), danger: true, run: () => call(() => api(`/api/channel_tag/${encodeURIComponent(c.tag)}`, { method: 'DELETE' }), t('deleted')) })}
              >
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
        ) : (
          <ChannelActions channel={c} onEdit={() => setDialog({ kind: 'edit', id: c.id })} onChanged={list.reload} />
        ),
    },
  ];

  const toolbar = [
    { key: 'test', icon: <NetworkCheck />, label: t('testAll'), run: () => call(async () => { await api('/api/channel/test'); showInfo(t('testAllStarted')); }) },
    { key: 'balance', icon: <AccountBalanceWallet />, label: t('updateBalances'), run: () => call(async () => { await api('/api/channel/update_balance'); showInfo(t('balancesStarted')); }) },
    { key: 'disabled', icon: <DeleteForeverOutlined />, label: t('deleteDisabled'), danger: true, run: () => call(async () => { const n = await api<number>('/api/channel/disabled', { method: 'DELETE' }); showSuccess(t('deletedDisabled', { count: n })); }) },
  ];

  return (
    <Box data-testid="channel-page">
      <PageHeader
        subtitle={t('subtitle')}
        actions={
          <ButtonGroup variant="contained">
            <Button startIcon={<Add />} onClick={() => setDialog({ kind: 'create' })} data-testid="channel-create">
              {t('create')}
            </Button>
            <Button startIcon={<Layers />} onClick={() => setBatch(true)}>
              {t('batch')}
            </Button>
          </ButtonGroup>
        }
      />
      <Alert severity="info" sx={{ mb: 2 }}>
        <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
          {[1, 2, 3, 4].map((i) => (
            <li key={i}>{t(`priorityHint${i}`)}</li>
          ))}
        </Box>
      </Alert>
      <Card>
        <FilterBar
          active={Object.entries(list.filters).filter(([k, v]) => v !== NO_FILTERS[k as keyof ChannelFilterState]).length}
          onSearch={() => list.setFilters(draft)}
          onReset={() => {
            setDraft(NO_FILTERS);
            list.setFilters(NO_FILTERS);
            list.refresh();
          }}
          actions={toolbar.map((b) => (
            <Tooltip key={b.key} title={b.label}>
              <Chip icon={b.icon} label={b.label} variant="outlined" color={b.danger ? 'error' : 'default'} onClick={() => confirmThen({ title: b.label, danger: b.danger, run: b.run })} sx={{ height: 36, '& .MuiChip-label': { display: { xs: 'none', md: 'block' } }, '& .MuiChip-icon': { mx: { xs: 0.75, md: 0 }, ml: { md: 1 } } }} />
            </Tooltip>
          ))}
        >
          <ChannelFilters value={draft} onChange={setDraft} groups={lookups.groups} tags={lookups.tags} />
        </FilterBar>
        <DataTable
          columns={columns}
          rowKey={(c) => (isTagRow(c) ? `tag:${c.tag}` : c.id)}
          emptyText={t('empty')}
          renderExpanded={(c) => (isTagRow(c) ? <TagSubTable tag={c.tag} onChanged={list.reload} /> : <ChannelDetail channel={c} />)}
          {...pagedTableProps(list)}
        />
      </Card>
      <ChannelDialog mode={dialog} onClose={() => setDialog(null)} onSaved={reload} />
      <BatchDialog open={batch} onClose={() => setBatch(false)} onDone={reload} />
      <ConfirmDialog
        open={pending !== null}
        title={pending?.title ?? ''}
        body={pending?.body}
        danger={pending?.danger}
        onClose={() => setPending(null)}
        onConfirm={() => {
          const p = pending;
          setPending(null);
          void p?.run();
        }}
      />
    </Box>
  );
}
