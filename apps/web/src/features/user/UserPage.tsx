import { useState } from 'react';
import { Box, Button, Card, InputAdornment, Stack, Switch, TextField, Tooltip } from '@mui/material';
import Add from '@mui/icons-material/Add';
import SpeedOutlined from '@mui/icons-material/SpeedOutlined';
import Search from '@mui/icons-material/Search';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import PaidOutlined from '@mui/icons-material/PaidOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { useTranslation } from 'react-i18next';
import { ROLE, USER_STATUS, type Page, type User } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, PageHeader, RowMenu, StatusChip, TimeText, pagedTableProps, usePagedList, RefreshButton, type DataColumn } from '../../components/data';
import { Bindings, RoleChip, Unknown, UserStats } from './user-cells';
import UserDialog from './UserDialog';
import { useGroupNames } from '../../lib/use-group-names';
import QuotaDialog from './QuotaDialog';
import UserLimitsDialog from './UserLimitsDialog';
import { useJumpQuery } from '../../lib/use-jump-query';

interface Filters {
  keyword: string;
}
type Action = 'disable' | 'enable' | 'delete' | 'promote' | 'demote' | 'set_reliable';
const fetchUsers = (q: { page: number; size: number; order?: string; filters: Filters }) =>
  api<Page<User>>('/api/user/', { query: { page: q.page, size: q.size, order: q.order, keyword: q.filters.keyword } });

/** Users (console-screens §3.9). */
export default function UserPage() {
  const { t } = useTranslation('user');
  const list = usePagedList<User, Filters>({ key: 'user', fetch: fetchUsers, initialFilters: { keyword: '' } });
  const [keyword, setKeyword] = useState('');
  useJumpQuery((q) => {
    setKeyword(q);
    list.setFilters({ keyword: q });
  });
  const [dialog, setDialog] = useState<{ id?: number } | null>(null);
  const [quotaUser, setQuotaUser] = useState<User | null>(null);
  const [limitsUser, setLimitsUser] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  const manage = async (u: User, action: Action) => {
    try {
      await api('/api/user/manage', { json: { username: u.username, action } });
      showSuccess(t(`done.${action}`));
      list.reload();
      return true;
    } catch (e) {
      showError(e);
      return false;
    }
  };
  const remove = async () => {
    if (deleting && (await manage(deleting, 'delete'))) setDeleting(null);
  };

  const groupNames = useGroupNames();
  const columns: DataColumn<User>[] = [
    { field: 'id', header: t('id'), sortable: true, hideOnPhone: true },
    { field: 'username', header: t('username'), sortable: true, render: (u) => <Tooltip title={u.display_name || ''}><span>{u.username}</span></Tooltip> },
    { field: 'group', header: t('group'), render: (u) => <StatusChip label={groupNames.get(u.group || 'default') ?? (u.group || 'default')} title={u.group || 'default'} color="info" /> },
    { field: 'quota', header: t('statistics'), render: (u) => <UserStats user={u} /> },
    { field: 'role', header: t('roleLabel'), sortable: true, render: (u) => <RoleChip role={u.role} /> },
    { field: 'bindings', header: t('bindings'), hideBelow: 'laptop', render: (u) => <Bindings user={u} /> },
    { field: 'created_time', header: t('created'), sortable: true, hideOnPhone: true, render: (u) => <TimeText value={u.created_time} fallback={t('unknown')} stacked /> },
    {
      field: 'last_login_time',
      header: t('lastLoginAndIp'),
      sortable: true,
      hideOnPhone: true,
      render: (u) => (
        <Stack>
          <TimeText value={u.last_login_time} fallback={t('unknown')} />
          <Unknown>{u.last_login_ip}</Unknown>
        </Stack>
      ),
    },
    {
      field: 'status',
      header: t('status'),
      sortable: true,
      render: (u) => (
        <Tooltip title={u.status === USER_STATUS.enabled ? t('enabled') : t('disabled')}>
          <Switch
            size="small"
            checked={u.status === USER_STATUS.enabled}
            onChange={() => void manage(u, u.status === USER_STATUS.enabled ? 'disable' : 'enable')}
            slotProps={{ input: { 'aria-label': t('statusOf', { name: u.username }) } }}
          />
        </Tooltip>
      ),
    },
    {
      field: 'actions',
      header: t('actions'),
      align: 'right',
      pinned: true,
      render: (u) => (
        <RowMenu
          testId={`user-menu-${u.username}`}
          items={[
            { label: t('demote'), icon: <PersonOutlined fontSize="small" />, hidden: u.role === ROLE.common || u.role === ROLE.root, onClick: () => void manage(u, 'demote') },
            { label: t('setReliable'), icon: <VerifiedUserOutlined fontSize="small" />, hidden: u.role === ROLE.reliable || u.role === ROLE.root, onClick: () => void manage(u, 'set_reliable') },
            { label: t('promote'), icon: <AdminPanelSettingsOutlined fontSize="small" />, hidden: u.role === ROLE.admin || u.role === ROLE.root, onClick: () => void manage(u, 'promote') },
            { label: t('edit'), icon: <EditOutlined fontSize="small" />, onClick: () => setDialog({ id: u.id }) },
            { label: t('changeQuota'), icon: <PaidOutlined fontSize="small" />, onClick: () => setQuotaUser(u) },
            { label: t('common:limits.title'), icon: <SpeedOutlined fontSize="small" />, onClick: () => setLimitsUser(u) },
            { label: t('delete'), icon: <DeleteOutline fontSize="small" />, danger: true, onClick: () => setDeleting(u) },
          ]}
        />
      ),
    },
  ];

  const search = () => list.setFilters({ keyword });
  return (
    <Box data-testid="user-page">
      <PageHeader
        subtitle={t('subtitle')}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setDialog({})} data-testid="user-create">
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
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> }, htmlInput: { 'data-testid': 'user-keyword', 'aria-label': t('searchPlaceholder') } }}
            sx={{ maxWidth: 420 }}
          />
          <Box sx={{ flex: 1 }} />
          <RefreshButton label={t('refresh')} onClick={list.refresh} />
        </Stack>
        <DataTable
          columns={columns}
          rowKey={(u) => u.id}
          emptyText={t('empty')}
          {...pagedTableProps(list)}
        />
      </Card>
      <UserDialog open={dialog !== null} id={dialog?.id} onClose={() => setDialog(null)} onSaved={list.reload} />
      <QuotaDialog user={quotaUser} onClose={() => setQuotaUser(null)} onSaved={list.reload} />
      <UserLimitsDialog user={limitsUser} onClose={() => setLimitsUser(null)} />
      <ConfirmDialog
        open={deleting !== null}
        danger
        title={t('deleteTitle')}
        body={t('deleteBody', { name: deleting?.username ?? '' })}
        confirmText={t('delete')}
        onClose={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </Box>
  );
}
