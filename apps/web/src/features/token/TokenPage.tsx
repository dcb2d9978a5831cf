import { useMemo, useState } from 'react';
import { Alert, Box, Button, Card, Collapse, InputAdornment, Stack, Switch, TextField, Tooltip, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Search from '@mui/icons-material/Search';
import ManageSearch from '@mui/icons-material/ManageSearch';
import { useTranslation } from 'react-i18next';
import { ROLE, TOKEN_STATUS, buildChatLinks, type Page, type Token } from '@one-hub/contract';
import { api } from '../../lib/api';
import { copyText, showError, showSuccess } from '../../lib/toast';
import { useAppSelector } from '../../store';
import { isAdminUser } from '../../store/account';
import { ConfirmDialog, DataTable, PageHeader, QuotaText, StatusChip, TimeText, pagedTableProps, usePagedList, RefreshButton, type DataColumn } from '../../components/data';
import TokenActions from './TokenActions';
import TokenDialog from './TokenDialog';
import NewKeyDialog from './NewKeyDialog';
import { groupColor } from './use-token-lookups';
import { tokenState } from './token-form';
import { useJumpQuery } from '../../lib/use-jump-query';

interface Filters {
  keyword: string;
  user_id: string;
  token_id: string;
}
const EMPTY: Filters = { keyword: '', user_id: '', token_id: '' };
const adminMode = (f: Filters) => Boolean(f.user_id || f.token_id);

function fetchTokens(q: { page: number; size: number; order?: string; filters: Filters }) {
  const { keyword, user_id, token_id } = q.filters;
  const base = { page: q.page, size: q.size, order: q.order, keyword };
  if (adminMode(q.filters)) return api<Page<Token>>('/api/token/admin/search', { query: { ...base, user_id, token_id } });
  return api<Page<Token>>('/api/token/', { query: base });
}

const STATUS_KEY: Record<number, string> = { 1: 'enabled', 2: 'disabled', 3: 'expired', 4: 'exhausted' };

/** Tokens (console-screens §3.7): own tokens, or any user's through the admin search. */
export default function TokenPage() {
  const { t } = useTranslation('token');
  const user = useAppSelector((s) => s.account.user);
  const site = useAppSelector((s) => s.siteInfo);
  const admin = isAdminUser(user);
  const reliable = (user?.role ?? 0) >= ROLE.reliable;
  const list = usePagedList<Token, Filters>({ key: 'token', fetch: fetchTokens, initialFilters: EMPTY });
  const [draft, setDraft] = useState<Filters>(EMPTY);
  useJumpQuery((keyword) => {
    setDraft({ ...EMPTY, keyword });
    list.setFilters({ ...EMPTY, keyword });
  });
  const [searchOpen, setSearchOpen] = useState(false);
  const [dialog, setDialog] = useState<{ id?: number } | null>(null);
  const [deleting, setDeleting] = useState<Token | null>(null);
  const [newKey, setNewKey] = useState<string | null>(null);
  const server = site.server_address || window.location.origin;
  const links = useMemo(() => buildChatLinks({ chatLinks: site.chat_links, chatLink: site.chat_link }), [site.chat_links, site.chat_link]);
  const inAdmin = adminMode(list.filters);

  const apply = (next: Filters) => {
    setDraft(next);
    list.setFilters(next);
  };
  const toggleStatus = async (tk: Token) => {
    const status = tk.status === TOKEN_STATUS.enabled ? TOKEN_STATUS.disabled : TOKEN_STATUS.enabled;
    try {
      await api(inAdmin ? '/api/token/admin' : '/api/token/', { method: 'PUT', query: { status_only: true }, json: { id: tk.id, status } });
      showSuccess(t('saved'));
      list.reload();
    } catch (e) {
      showError(e);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await api(`/api/token/${deleting.id}`, { method: 'DELETE' });
      showSuccess(t('deleted'));
      setDeleting(null);
      list.reload();
    } catch (e) {
      showError(e);
    }
  };

  const group = (name: string, empty: string) => (name ? <StatusChip label={name} color={groupColor(name)} /> : <Typography variant="body2" color="text.secondary">{empty}</Typography>);
  const remaining = (tk: Token) => (tk.unlimited_quota ? t('unlimitedShort') : <QuotaText quota={tk.remain_quota} />);
  const expiry = (tk: Token) => (tk.expired_time === -1 ? t('never') : <TimeText value={tk.expired_time} />);
  const statusCell = (tk: Token) => {
    const state = tokenState(tk);
    if (state !== 'switch') return <StatusChip label={t(`status.${state}`)} color={state === 'expired' ? 'error' : 'warning'} variant="filled" />;
    return (
    <Tooltip title={t(`status.${STATUS_KEY[tk.status] ?? 'unknown'}`)}>
      <Switch size="small" checked={tk.status === TOKEN_STATUS.enabled} onChange={() => void toggleStatus(tk)} slotProps={{ input: { 'aria-label': t('statusLabel') } }} />
    </Tooltip>
    );
  };
  const actions = (tk: Token) => <TokenActions token={tk} links={links} server={server} compact={inAdmin} onEdit={() => setDialog({ id: tk.id })} onDelete={() => setDeleting(tk)} />;
  const billing: DataColumn<Token>[] = reliable ? [{ field: 'billing_tag', header: t('billingTag'), hideOnPhone: true, hideBelow: 'xl', render: (tk) => tk.setting.billing_tag || '-' }] : [];

  const columns: DataColumn<Token>[] = inAdmin
    ? [
        { field: 'user_id', header: t('owner'), render: (tk) => `${tk.user_id} - ${tk.owner_name ?? ''}` },
        { field: 'name', header: t('name'), sortable: true },
        { field: 'group', header: t('groupAndBackup'), render: (tk) => <Stack direction="row" spacing={0.5}>{group(tk.group, t('followUser'))}{tk.backup_group && group(tk.backup_group, '')}</Stack> },
        ...billing,
        { field: 'status', header: t('statusLabel'), sortable: true, render: statusCell },
        { field: 'used_quota', header: t('usedRemain'), render: (tk) => <Stack><QuotaText quota={tk.used_quota} /><Typography variant="body2" color="text.secondary">{remaining(tk)}</Typography></Stack> },
        { field: 'created_time', header: t('createdExpiry'), hideOnPhone: true, render: (tk) => <Stack><TimeText value={tk.created_time} /><Typography variant="body2" color="text.secondary">{expiry(tk)}</Typography></Stack> },
        { field: 'accessed_time', header: t('accessed'), sortable: true, render: (tk) => <TimeText value={tk.accessed_time} /> },
        { field: 'actions', header: t('actions'), align: 'right', pinned: true, render: actions },
      ]
    : [
        { field: 'name', header: t('name'), sortable: true },
        { field: 'group', header: t('group'), sortable: true, render: (tk) => group(tk.group, t('followUser')) },
        ...billing,
        { field: 'status', header: t('statusLabel'), sortable: true, render: statusCell },
        { field: 'used_quota', header: t('used'), sortable: true, render: (tk) => <QuotaText quota={tk.used_quota} /> },
        { field: 'remain_quota', header: t('remain'), sortable: true, render: remaining },
        { field: 'created_time', header: t('created'), sortable: true, hideOnPhone: true, render: (tk) => <TimeText value={tk.created_time} /> },
        { field: 'expired_time', header: t('expiry'), sortable: true, render: expiry },
        { field: 'actions', header: t('actions'), align: 'right', pinned: true, render: actions },
      ];

  return (
    <Box data-testid="token-page">
      <PageHeader
        subtitle={t('subtitle')}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setDialog({})} data-testid="token-create">
            {t('create')}
          </Button>
        }
      />
      <Alert severity="info" sx={{ mb: 2, alignItems: 'center' }}>
        {t('baseHint')}{' '}
        <StatusChip label={server} color="primary" variant="outlined" onClick={() => void copyText(server, t('serverAddress'))} sx={{ ml: 0.5, maxWidth: '100%' }} />
      </Alert>
      {admin && (
        <Card sx={{ mb: 2 }}>
          <Button fullWidth startIcon={<ManageSearch />} onClick={() => setSearchOpen((o) => !o)} sx={{ justifyContent: 'flex-start', px: 2, py: 1.2 }} data-testid="token-admin-toggle">
            {t('adminSearch')}
          </Button>
          <Collapse in={searchOpen}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ p: 2, pt: 0 }}>
              <TextField size="small" label={t('userId')} value={draft.user_id} onChange={(e) => setDraft({ ...draft, user_id: e.target.value.replace(/\D/g, '') })} onKeyDown={(e) => e.key === 'Enter' && apply(draft)} />
              <TextField size="small" label={t('tokenId')} value={draft.token_id} onChange={(e) => setDraft({ ...draft, token_id: e.target.value.replace(/\D/g, '') })} onKeyDown={(e) => e.key === 'Enter' && apply(draft)} />
              <Button variant="outlined" onClick={() => apply(draft)}>{t('table.search', { ns: 'common' })}</Button>
              <Button color="inherit" onClick={() => apply({ ...draft, user_id: '', token_id: '' })}>{t('clear')}</Button>
            </Stack>
          </Collapse>
        </Card>
      )}
      <Card>
        <Stack direction="row" spacing={1} sx={{ p: 2, alignItems: 'center' }}>
          <TextField
            size="small"
            fullWidth
            placeholder={t('searchPlaceholder')}
            value={draft.keyword}
            onChange={(e) => setDraft({ ...draft, keyword: e.target.value })}
            onKeyDown={(e) => e.key === 'Enter' && apply(draft)}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> }, htmlInput: { 'data-testid': 'token-keyword' } }}
            sx={{ maxWidth: 420 }}
          />
          <Box sx={{ flex: 1 }} />
          <RefreshButton label={t('refresh')} onClick={list.refresh} />
        </Stack>
        <DataTable
          columns={columns}
          rowKey={(tk) => tk.id}
          emptyText={t('empty')}
          {...pagedTableProps(list)}
        />
      </Card>
      <TokenDialog open={dialog !== null} id={dialog?.id} admin={inAdmin} onClose={() => setDialog(null)} onSaved={list.reload} onCreated={setNewKey} />
      <NewKeyDialog tokenKey={newKey} onClose={() => setNewKey(null)} />
      <ConfirmDialog open={deleting !== null} danger title={t('deleteTitle')} body={t('deleteBody', { name: deleting?.name })} confirmText={t('delete')} onClose={() => setDeleting(null)} onConfirm={() => void remove()} />
    </Box>
  );
}
