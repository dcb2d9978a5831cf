import { useState } from 'react';
import { Box, Button, Card, Stack, Switch } from '@mui/material';
import Add from '@mui/icons-material/Add';
import SpeedOutlined from '@mui/icons-material/SpeedOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { Page, UserGroup } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, PageHeader, RowMenu, StatusChip, pagedTableProps, usePagedList, RefreshButton, type DataColumn } from '../../components/data';
import UserGroupDialog from './UserGroupDialog';
import GroupLimitsDialog from './GroupLimitsDialog';
import { useServerText } from '../../lib/server-text';

const fetchGroups = (q: { page: number; size: number; order?: string }) => api<Page<UserGroup>>('/api/user_group/', { query: { page: q.page, size: q.size, order: q.order } });

/** User groups (console-screens §3.17). */
export default function UserGroupPage() {
  const { t } = useTranslation('user-group');
  const { groupName } = useServerText();
  const list = usePagedList<UserGroup, Record<string, never>>({ key: 'userGroup', fetch: fetchGroups, initialFilters: {} });
  const [dialog, setDialog] = useState<{ id?: number } | null>(null);
  const [limitsOf, setLimitsOf] = useState<UserGroup | null>(null);
  const [deleting, setDeleting] = useState<UserGroup | null>(null);

  const toggle = async (g: UserGroup) => {
    try {
      await api(`/api/user_group/enable/${g.id}`, { method: 'PUT' });
      showSuccess(t('updated'));
      list.reload();
    } catch (e) {
      showError(e);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await api(`/api/user_group/${deleting.id}`, { method: 'DELETE' });
      showSuccess(t('deleted'));
      setDeleting(null);
      list.reload();
    } catch (e) {
      showError(e);
    }
  };
  const yesNo = (v: boolean) => <StatusChip label={v ? t('yes') : t('no')} color={v ? 'primary' : 'error'} />;

  const columns: DataColumn<UserGroup>[] = [
    { field: 'id', header: t('field.id'), sortable: true, hideOnPhone: true },
    { field: 'symbol', header: t('field.symbol'), sortable: true, maxWidth: 160 },
    { field: 'name', header: t('field.name'), sortable: true, maxWidth: 200, render: (g) => <span title={groupName(g.symbol, g.name)}>{groupName(g.symbol, g.name)}</span> },
    { field: 'ratio', header: t('field.ratio'), sortable: true },
    { field: 'api_rate', header: t('field.api_rate'), sortable: true },
    { field: 'public', header: t('field.public'), sortable: true, render: (g) => yesNo(g.public) },
    { field: 'promotion', header: t('field.promotion'), sortable: true, render: (g) => yesNo(g.promotion) },
    { field: 'min', header: t('field.min'), sortable: true, hideOnPhone: true, hideBelow: 'xl' },
    { field: 'max', header: t('field.max'), sortable: true, hideOnPhone: true, hideBelow: 'xl' },
    {
      field: 'enable',
      header: t('field.enable'),
      sortable: true,
      render: (g) => <Switch size="small" checked={g.enable} onChange={() => void toggle(g)} slotProps={{ input: { 'aria-label': t('enableOf', { name: g.name }) } }} />,
    },
    {
      field: 'actions',
      header: t('actions'),
      align: 'right',
      pinned: true,
      render: (g) => (
        <RowMenu
          items={[
            { label: t('edit'), icon: <EditOutlined fontSize="small" />, onClick: () => setDialog({ id: g.id }) },
            { label: t('common:limits.title'), icon: <SpeedOutlined fontSize="small" />, onClick: () => setLimitsOf(g) },
            { label: t('delete'), icon: <DeleteOutline fontSize="small" />, danger: true, onClick: () => setDeleting(g) },
          ]}
        />
      ),
    },
  ];

  return (
    <Box data-testid="user-group-page">
      <PageHeader
        subtitle={t('subtitle')}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setDialog({})} data-testid="user-group-create">
            {t('create')}
          </Button>
        }
      />
      <Card>
        <Stack direction="row" sx={{ p: 1, justifyContent: 'flex-end' }}>
          <RefreshButton label={t('refresh')} onClick={list.refresh} />
        </Stack>
        <DataTable
          columns={columns}
          rowKey={(g) => g.id}
          emptyText={t('empty')}
          {...pagedTableProps(list)}
        />
      </Card>
      <UserGroupDialog open={dialog !== null} id={dialog?.id} onClose={() => setDialog(null)} onSaved={list.reload} />
      <GroupLimitsDialog group={limitsOf} onClose={() => setLimitsOf(null)} />
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
