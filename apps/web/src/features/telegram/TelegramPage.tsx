import { useState } from 'react';
import { Alert, Box, Button, Card, InputAdornment, Stack, TextField, Tooltip, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Search from '@mui/icons-material/Search';
import Sync from '@mui/icons-material/Sync';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Page, TelegramMenu, TelegramStatus } from '@one-hub/contract';
import { api, apiWithMessage } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, PageHeader, RowMenu, StatusChip, pagedTableProps, usePagedList, RefreshButton, type DataColumn } from '../../components/data';
import TelegramDialog from './TelegramDialog';

interface Filters {
  keyword: string;
}
const fetchMenus = (q: { page: number; size: number; order?: string; filters: Filters }) =>
  api<Page<TelegramMenu>>('/api/option/telegram/', { query: { page: q.page, size: q.size, order: q.order, keyword: q.filters.keyword } });

/** A long text cut to one line, the whole of it in a tooltip. */
function Clipped({ text, width = 260 }: { text: string; width?: number }) {
  return (
    <Tooltip title={text} placement="top-start">
      <Typography variant="body2" noWrap sx={{ maxWidth: width }}>
        {text}
      </Typography>
    </Tooltip>
  );
}

/** Custom bot commands and the bot's state (console-screens §3.11). */
export default function TelegramPage() {
  const { t } = useTranslation('telegram');
  const list = usePagedList<TelegramMenu, Filters>({ key: 'telegram', fetch: fetchMenus, initialFilters: { keyword: '' } });
  const status = useQuery({ queryKey: ['telegram-status'], queryFn: () => api<TelegramStatus>('/api/option/telegram/status'), retry: false });
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<{ id?: number } | null>(null);
  const [deleting, setDeleting] = useState<TelegramMenu | null>(null);

  const reloadBot = async () => {
    try {
      const { message } = await apiWithMessage('/api/option/telegram/reload', { method: 'PUT' });
      showSuccess(message || t('reloaded'));
    } catch (e) {
      showError(e);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await api(`/api/option/telegram/${deleting.id}`, { method: 'DELETE' });
      showSuccess(t('deleted'));
      setDeleting(null);
      list.reload();
    } catch (e) {
      showError(e);
    }
  };

  const columns: DataColumn<TelegramMenu>[] = [
    { field: 'id', header: t('id'), sortable: true },
    { field: 'command', header: t('command'), sortable: true, render: (m) => <StatusChip label={`/${m.command}`} color="primary" copyText={`/${m.command}`} /> },
    { field: 'description', header: t('description'), sortable: true, render: (m) => <Clipped text={m.description} width={200} /> },
    { field: 'parse_mode', header: t('parseMode'), sortable: true, hideOnPhone: true },
    { field: 'reply_message', header: t('replyMessage'), sortable: true, hideOnPhone: true, render: (m) => <Clipped text={m.reply_message} /> },
    {
      field: 'actions',
      header: t('actions'),
      align: 'right',
      pinned: true,
      render: (m) => (
        <RowMenu
          testId={`telegram-menu-${m.command}`}
          items={[
            { label: t('edit'), icon: <EditOutlined fontSize="small" />, onClick: () => setDialog({ id: m.id }) },
            { label: t('delete'), icon: <DeleteOutline fontSize="small" />, danger: true, onClick: () => setDeleting(m) },
          ]}
        />
      ),
    },
  ];

  const bot = status.data;
  const botLabel = status.isError ? t('statusUnknown') : `${bot?.status ? t('online') : t('offline')} ${bot?.is_webhook ? t('webhook') : t('polling')}`;
  const search = () => list.setFilters({ keyword });
  return (
    <Box data-testid="telegram-page">
      <PageHeader
        subtitle={t('subtitle')}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setDialog({})} data-testid="telegram-create">
            {t('create')}
          </Button>
        }
      />
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('reloadHint')}
      </Alert>
      <Card>
        <Stack direction="row" spacing={1} useFlexGap sx={{ p: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <StatusChip label={status.isPending ? '…' : botLabel} color={bot?.status ? 'primary' : 'error'} variant="outlined" size="medium" sx={{ '& .MuiChip-label': { px: 1.5 } }} />
          <Button startIcon={<Sync />} onClick={() => void reloadBot()} data-testid="telegram-reload">
            {t('reload')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <TextField
            size="small"
            placeholder={t('searchPlaceholder')}
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && search()}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> }, htmlInput: { 'data-testid': 'telegram-keyword', 'aria-label': t('searchPlaceholder') } }}
            sx={{ width: { xs: '100%', sm: 320 } }}
          />
          <RefreshButton label={t('refresh')} onClick={() => (list.refresh(), void status.refetch())} />
        </Stack>
        <DataTable
          columns={columns}
          rowKey={(m) => m.id}
          emptyText={t('empty')}
          {...pagedTableProps(list)}
        />
      </Card>
      <TelegramDialog open={dialog !== null} id={dialog?.id} onClose={() => setDialog(null)} onSaved={list.reload} />
      <ConfirmDialog
        open={deleting !== null}
        danger
        title={t('deleteTitle')}
        body={t('deleteBody', { command: deleting?.command ?? '' })}
        confirmText={t('delete')}
        onClose={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </Box>
  );
}
