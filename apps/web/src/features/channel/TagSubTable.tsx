import { useState } from 'react';
import { Box, Button, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import DeleteSweep from '@mui/icons-material/DeleteSweep';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Channel } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, readPageSize, writePageSize, type DataColumn } from '../../components/data';
import ChannelActions from './ChannelActions';
import { BalanceCell, InlineNumber, ResponseTimeChip, StatusCell } from './channel-cells';
import SimpleEditDialog from './SimpleEditDialog';

/** A tag's channels (console-screens §3.3), paged here in the browser with their own remembered size. */
export default function TagSubTable({ tag, onChanged }: { tag: string; onChanged: () => void }) {
  const { t } = useTranslation('channel');
  const list = useQuery({ queryKey: ['channel-tag-list', tag], queryFn: () => api<Channel[]>(`/api/channel_tag/${encodeURIComponent(tag)}/list`), retry: false });
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(() => readPageSize('channelTag'));
  const [selected, setSelected] = useState<(string | number)[]>([]);
  const [confirm, setConfirm] = useState(false);
  const [editing, setEditing] = useState<Channel | null>(null);
  const rows = list.data ?? [];
  const reload = () => {
    void list.refetch();
    onChanged();
  };

  const savePriority = async (c: Channel, priority: number) => {
    try {
      await api('/api/channel/', { method: 'PUT', json: { id: c.id, priority } });
      showSuccess(t('saved'));
      reload();
    } catch (e) {
      showError(e);
    }
  };
  const batchDelete = async () => {
    try {
      await api('/api/channel/batch', { method: 'DELETE', json: { value: 'batch_delete', ids: selected } });
      showSuccess(t('deletedCount', { count: selected.length }));
      setSelected([]);
      setConfirm(false);
      reload();
    } catch (e) {
      showError(e);
    }
  };

  const columns: DataColumn<Channel>[] = [
    { field: 'name', header: t('idName'), render: (c) => `${c.id} - ${c.name}` },
    { field: 'status', header: t('statusLabel'), render: (c) => <StatusCell channel={c} onChanged={reload} /> },
    { field: 'used_quota', header: t('usedBalance'), render: (c) => <BalanceCell channel={c} /> },
    { field: 'response_time', header: t('responseTime'), render: (c) => <ResponseTimeChip channel={c} /> },
    { field: 'priority', header: t('priority'), render: (c) => <InlineNumber value={c.priority ?? 0} min={0} label={t('priority')} onSave={(v) => savePriority(c, v)} /> },
    { field: 'actions', header: t('actions'), align: 'right', render: (c) => <ChannelActions channel={c} inTagTable onEdit={() => setEditing(c)} onChanged={reload} /> },
  ];

  return (
    <Box data-testid="tag-sub-table" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: 'background.paper' }}>
      <Stack direction="row" spacing={1} sx={{ px: 2, pt: 1, alignItems: 'center' }}>
        <Typography variant="subtitle2">{t('tagChannels', { tag, count: rows.length })}</Typography>
        <Tooltip title={t('refresh')}>
          <IconButton size="small" aria-label={t('refresh')} onClick={() => void list.refetch()}>
            <Refresh fontSize="small" />
          </IconButton>
        </Tooltip>
        <Box sx={{ flex: 1 }} />
        {selected.length > 0 && (
          <Button size="small" color="error" startIcon={<DeleteSweep />} onClick={() => setConfirm(true)}>
            {t('batchDelete', { count: selected.length })}
          </Button>
        )}
      </Stack>
      <DataTable
        columns={columns}
        rows={rows.slice(page * size, page * size + size)}
        rowKey={(c) => c.id}
        loading={list.isFetching}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        selection={{ selected, onChange: setSelected }}
        pagination={{
          page,
          pageSize: size,
          total: rows.length,
          onPage: setPage,
          onPageSize: (s) => {
            writePageSize('channelTag', s);
            setSize(s);
            setPage(0);
          },
        }}
      />
      <ConfirmDialog open={confirm} danger title={t('batchDelete', { count: selected.length })} onClose={() => setConfirm(false)} onConfirm={() => void batchDelete()} />
      <SimpleEditDialog channel={editing} onClose={() => setEditing(null)} onSaved={reload} />
    </Box>
  );
}
