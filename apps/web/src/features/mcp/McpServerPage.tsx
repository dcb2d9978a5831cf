import { useState } from 'react';
import { Box, Button, Card, IconButton, InputAdornment, Stack, Switch, TextField, Tooltip, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Search from '@mui/icons-material/Search';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Sync from '@mui/icons-material/Sync';
import BuildOutlined from '@mui/icons-material/BuildOutlined';
import { useTranslation } from 'react-i18next';
import type { McpServer, McpTool } from '@one-hub/contract';
import { api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, PageHeader, QuotaText, RefreshButton, RowMenu, StatusChip, TimeText, pagedTableProps, usePagedList, type DataColumn } from '../../components/data';
import McpServerDialog from './McpServerDialog';
import McpToolsDrawer from './McpToolsDrawer';
import { asPage } from './mcp-form';

/** Per-call prices are small amounts: four decimals in currency. */
export const PRICE_DIGITS = 4;

interface Filters {
  keyword: string;
}
const EMPTY: Filters = { keyword: '' };
const fetchServers = async (q: { page: number; size: number; order?: string; filters: Filters }) =>
  asPage(await api('/api/mcp_server/', { query: { page: q.page, size: q.size, order: q.order, keyword: q.filters.keyword } }));

interface ToolsView {
  server: McpServer;
  tools: McpTool[];
  refreshing: boolean;
  error: string;
}

/** Upstream MCP servers behind `/mcp` (issue 40): their credentials, who may use them, price and tool catalogue. */
export default function McpServerPage() {
  const { t } = useTranslation('mcp');
  const list = usePagedList<McpServer, Filters>({ key: 'mcpServer', fetch: fetchServers, initialFilters: EMPTY });
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<{ server?: McpServer } | null>(null);
  const [deleting, setDeleting] = useState<McpServer | null>(null);
  const [view, setView] = useState<ToolsView | null>(null);

  const toggle = async (s: McpServer) => {
    try {
      await api('/api/mcp_server/', { method: 'PUT', json: { id: s.id, enabled: !s.enabled } });
      showSuccess(t('updated'));
      list.reload();
    } catch (e) {
      showError(e);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await api(`/api/mcp_server/${deleting.id}`, { method: 'DELETE' });
      showSuccess(t('deleted'));
      setDeleting(null);
      list.reload();
    } catch (e) {
      showError(e);
    }
  };
  const refresh = async (s: McpServer) => {
    setView((v) => ({ server: s, tools: v?.server.id === s.id ? v.tools : s.tools, refreshing: true, error: '' }));
    try {
      // The server answers its refreshed view: the new catalogue, or the refresh's failure in last_error.
      const refreshed = await api<McpServer>(`/api/mcp_server/${s.id}/refresh`, { method: 'POST' });
      setView((v) => (v && v.server.id === s.id ? { server: refreshed, tools: refreshed.tools, refreshing: false, error: refreshed.last_error } : v));
      if (!refreshed.last_error) showSuccess(t('refreshed', { count: refreshed.tools.length }));
    } catch (e) {
      setView((v) => (v && v.server.id === s.id ? { ...v, refreshing: false, error: describeError(e, t).text } : v));
    }
    list.reload();
  };

  /** The last refresh: a health chip (the error in its tooltip) over the time it ran. */
  const lastRefresh = (s: McpServer) => {
    const chip = s.last_error ? (
      <Tooltip title={s.last_error}>
        <span>
          <StatusChip label={t('state.error')} color="error" />
        </span>
      </Tooltip>
    ) : s.last_refresh_time ? (
      <StatusChip label={t('state.ok')} color="success" />
    ) : (
      <StatusChip label={t('state.pending')} color="default" />
    );
    return (
      <Stack spacing={0.25} sx={{ alignItems: { xs: 'flex-end', sm: 'flex-start' } }}>
        {chip}
        {s.last_refresh_time > 0 && <TimeText value={s.last_refresh_time} variant="caption" color="text.secondary" />}
      </Stack>
    );
  };

  const columns: DataColumn<McpServer>[] = [
    {
      field: 'name',
      header: t('col.name'),
      sortable: true,
      maxWidth: 200,
      render: (s) => (
        <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', fontWeight: 600, whiteSpace: 'nowrap' }}>
          {s.name}
        </Typography>
      ),
    },
    { field: 'transport', header: t('col.transport'), hideBelow: 'laptop', render: (s) => <StatusChip label={t(`transport.${s.transport}`)} color={s.transport === 'streamable-http' ? 'primary' : s.transport === 'sse' ? 'info' : 'orange'} /> },
    { field: 'url', header: t('col.url'), maxWidth: 180, hideBelow: 'laptop', render: (s) => s.url },
    {
      field: 'groups',
      header: t('col.groups'),
      hideBelow: 'xl',
      render: (s) => {
        const groups = s.groups.split(',').map((g) => g.trim()).filter(Boolean);
        return groups.length ? (
          <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', gap: 0.5, '& > *': { m: '0 !important' } }}>
            {groups.map((g) => (
              <StatusChip key={g} label={g} variant="outlined" />
            ))}
          </Stack>
        ) : (
          <Typography component="span" variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {t('allGroups')}
          </Typography>
        );
      },
    },
    { field: 'price', header: t('col.price'), sortable: true, render: (s) => (s.price > 0 ? <QuotaText quota={s.price} digits={PRICE_DIGITS} sx={{ whiteSpace: 'nowrap' }} /> : <StatusChip label={t('free')} color="success" variant="ghost" />) },
    {
      field: 'tool_count',
      header: t('col.tools'),
      align: 'right',
      render: (s) => <StatusChip label={t('toolCount', { count: s.tool_count })} color={s.tool_count ? 'secondary' : 'default'} onClick={() => setView({ server: s, tools: s.tools, refreshing: false, error: '' })} title={t('viewTools')} />,
    },
    {
      field: 'enabled',
      header: t('col.enabled'),
      render: (s) => (
        <Tooltip title={s.enabled ? t('enabled') : t('disabled')}>
          <Switch size="small" checked={s.enabled} onChange={() => void toggle(s)} slotProps={{ input: { 'aria-label': t('enabledOf', { name: s.name }) } }} />
        </Tooltip>
      ),
    },
    { field: 'last_refresh_time', header: t('col.lastRefresh'), render: lastRefresh },
    {
      field: 'actions',
      header: t('col.actions'),
      align: 'right',
      pinned: true,
      render: (s) => (
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
          <Tooltip title={t('refreshTools')}>
            <span>
              <IconButton size="small" color="primary" aria-label={t('refreshOf', { name: s.name })} disabled={view?.server.id === s.id && view.refreshing} onClick={() => void refresh(s)} data-testid={`mcp-refresh-${s.name}`}>
                <Sync fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
          <RowMenu
            testId={`mcp-menu-${s.name}`}
            items={[
              { label: t('viewTools'), icon: <BuildOutlined fontSize="small" />, onClick: () => setView({ server: s, tools: s.tools, refreshing: false, error: '' }) },
              { label: t('edit'), icon: <EditOutlined fontSize="small" />, onClick: () => setDialog({ server: s }) },
              { label: t('delete'), icon: <DeleteOutline fontSize="small" />, danger: true, onClick: () => setDeleting(s) },
            ]}
          />
        </Stack>
      ),
    },
  ];

  const search = () => list.setFilters({ keyword });
  return (
    <Box data-testid="mcp-page">
      <PageHeader
        subtitle={t('subtitle')}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setDialog({})} data-testid="mcp-create">
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
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> }, htmlInput: { 'data-testid': 'mcp-keyword', 'aria-label': t('searchPlaceholder') } }}
            sx={{ maxWidth: 420 }}
          />
          <Box sx={{ flex: 1 }} />
          <RefreshButton label={t('reload')} onClick={list.refresh} />
        </Stack>
        <DataTable columns={columns} rowKey={(s) => s.id} emptyText={t('empty')} {...pagedTableProps(list)} />
      </Card>
      <McpServerDialog open={dialog !== null} server={dialog?.server} onClose={() => setDialog(null)} onSaved={list.reload} />
      <McpToolsDrawer
        server={view?.server ?? null}
        tools={view?.tools ?? []}
        refreshing={view?.refreshing ?? false}
        error={view?.error ?? ''}
        onRefresh={() => view && void refresh(view.server)}
        onClose={() => setView(null)}
      />
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
