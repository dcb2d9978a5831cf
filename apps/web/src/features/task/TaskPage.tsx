import { useState } from 'react';
import { Box, Card, MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ROLE, TASK_STATUSES, type AsyncTask, type Page } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useAppSelector } from '../../store';
import { ClippedText, DataTable, FilterBar, PageHeader, StatusChip, TimeText, pagedTableProps, usePagedList, type DataColumn } from '../../components/data';
import DateTimeRangeField from '../../components/dates/DateTimeRangeField';
import { durationSeconds } from '../midjourney/mj-data';
import { TASK_PLATFORMS, taskStatusColor } from './task-data';
import TaskProgress from './TaskProgress';
import TaskCost from './TaskCost';
import { useLiveReload } from './use-live-reload';
import TaskDetail from './TaskDetail';
import TaskResultCell from './TaskResultCell';

interface Filters {
  channel_id: string;
  user_id: string;
  platform: string;
  status: string;
  task_id: string;
  start_timestamp: number;
  end_timestamp: number;
}
const blank = (): Filters => ({ channel_id: '', user_id: '', platform: '', status: '', task_id: '', start_timestamp: 0, end_timestamp: Math.floor(Date.now() / 1000) + 3600 });

/** Suno, Kling and OpenAI video tasks with live progress, cost and refunds; administrators see everyone's and filter by channel and user (console-screens §3.16). */
export default function TaskPage() {
  const { t } = useTranslation('task');
  const admin = useAppSelector((s) => (s.account.user?.role ?? 0) >= ROLE.admin);
  const list = usePagedList<AsyncTask, Filters>({
    key: 'task',
    initialOrder: '-submit_time',
    initialFilters: blank(),
    fetch: ({ page, size, order, filters }) => {
      const { channel_id, user_id, ...own } = filters;
      const query = { page, size, order, ...own, start_timestamp: own.start_timestamp || undefined, ...(admin ? { channel_id, user_id } : {}) };
      return api<Page<AsyncTask>>(admin ? '/api/task/' : '/api/task/self', { query });
    },
  });
  useLiveReload(list.reload, list.rows.some((x) => x.progress < 100));
  const [draft, setDraft] = useState<Filters>(list.filters);
  const [detail, setDetail] = useState<AsyncTask | null>(null);
  const reset = () => {
    const b = blank();
    setDraft(b);
    list.setFilters(b);
    list.refresh();
  };

  const statusLabel = (s: string) => ((TASK_STATUSES as readonly string[]).includes(s) ? t(`status.${s}`) : t('status.UNKNOWN'));
  // Status (opens the result) and the failure reason come before the times, so they fit a laptop screen.
  const columns: DataColumn<AsyncTask>[] = [
    { field: 'task_id', header: t('task'), sortable: true, render: (x) => <ClippedText text={x.task_id} max={16} label={t('task')} /> },
    { field: 'submit_time', header: t('submitTime'), sortable: true, render: (x) => <TimeText value={x.submit_time} stacked /> },
    { field: 'platform', header: t('platform'), sortable: true, render: (x) => <StatusChip label={x.platform} color="success" /> },
    { field: 'action', header: t('type'), hideOnPhone: true, render: (x) => <StatusChip label={x.action} color="success" variant="outlined" /> },
    {
      field: 'status',
      header: t('statusTitle'),
      sortable: true,
      render: (x) => <StatusChip label={statusLabel(x.status)} color={taskStatusColor(x.status)} onClick={() => setDetail(x)} title={t('openDetail')} />,
    },
    { field: 'progress', header: t('progress'), render: (x) => <TaskProgress percent={x.progress} failed={x.status === 'FAILURE'} /> },
    { field: 'result', header: t('result'), render: (x) => <TaskResultCell task={x} onOpen={() => setDetail(x)} /> },
    { field: 'quota', header: t('cost'), hideOnPhone: true, render: (x) => <TaskCost quota={x.quota} planQuota={x.plan_quota} failed={x.status === 'FAILURE'} /> },
    { field: 'fail_reason', header: t('failReason'), hideOnPhone: true, hideBelow: 'xl', render: (x) => <ClippedText text={x.fail_reason} label={t('failReason')} /> },
    {
      field: 'duration',
      header: t('duration'),
      hideOnPhone: true,
      hideBelow: 'xl',
      render: (x) => {
        const s = durationSeconds(x.submit_time, x.finish_time);
        return s === null ? '-' : <StatusChip label={t('seconds', { s })} color={s > 60 ? 'error' : 'success'} />;
      },
    },
    { field: 'finish_time', header: t('finishTime'), sortable: true, hideBelow: 'xl', render: (x) => <TimeText value={x.finish_time} /> },
    ...(admin
      ? ([
          { field: 'channel_id', header: t('channel'), sortable: true, hideOnPhone: true, hideBelow: 'xl' },
          { field: 'user_id', header: t('user'), sortable: true, hideOnPhone: true, hideBelow: 'xl' },
        ] as DataColumn<AsyncTask>[])
      : []),
  ];

  const choose = (field: 'platform' | 'status', label: string, items: { v: string; l: string }[]) => (
    <TextField select size="small" label={label} value={draft[field]} onChange={(e) => setDraft({ ...draft, [field]: e.target.value })} sx={{ minWidth: 140 }} data-testid={`task-filter-${field}`}>
      <MenuItem value="">{t('all')}</MenuItem>
      {items.map((i) => (
        <MenuItem key={i.v} value={i.v}>
          {i.l}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Box data-testid="task-page">
      <PageHeader subtitle={t('subtitle')} />
      <Card>
        <FilterBar onSearch={() => list.setFilters(draft)} onReset={reset}>
          {admin && <TextField size="small" type="number" label={t('channelId')} value={draft.channel_id} onChange={(e) => setDraft({ ...draft, channel_id: e.target.value })} />}
          {admin && <TextField size="small" type="number" label={t('userId')} value={draft.user_id} onChange={(e) => setDraft({ ...draft, user_id: e.target.value })} slotProps={{ htmlInput: { 'data-testid': 'task-filter-user' } }} />}
          {choose('platform', t('platform'), TASK_PLATFORMS.map((p) => ({ v: p, l: p })))}
          {choose('status', t('statusTitle'), TASK_STATUSES.map((s) => ({ v: s, l: statusLabel(s) })))}
          <TextField size="small" label={t('task')} value={draft.task_id} onChange={(e) => setDraft({ ...draft, task_id: e.target.value })} slotProps={{ htmlInput: { 'data-testid': 'task-filter-id' } }} />
          <DateTimeRangeField
            testId="task-filter-time"
            start={draft.start_timestamp}
            end={draft.end_timestamp}
            onChange={(start_timestamp, end_timestamp) => setDraft({ ...draft, start_timestamp, end_timestamp })}
            startLabel={t('startTime')}
            endLabel={t('endTime')}
          />
        </FilterBar>
        <DataTable
          columns={columns}
          rowKey={(x) => x.id}
          emptyText={t('empty')}
          {...pagedTableProps(list)}
        />
      </Card>
      <TaskDetail task={detail} onClose={() => setDetail(null)} />
    </Box>
  );
}
