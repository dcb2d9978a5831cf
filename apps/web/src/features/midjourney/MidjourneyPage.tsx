import { useState } from 'react';
import { Box, Card, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ROLE, type MidjourneyTask, type Page } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useAppSelector } from '../../store';
import { ClippedText, DataTable, FilterBar, PageHeader, StatusChip, TimeText, pagedTableProps, usePagedList, type DataColumn } from '../../components/data';
import DateTimeRangeField from '../../components/dates/DateTimeRangeField';
import { SUBMIT_CODES, actionColor, durationSeconds, statusColor } from './mj-data';
import ImageButton from './ImageButton';
import TaskProgress from '../task/TaskProgress';
import TaskCost from '../task/TaskCost';
import { useLiveReload } from '../task/use-live-reload';

const STATUSES = ['NOT_START', 'SUBMITTED', 'MODAL', 'IN_PROGRESS', 'FAILURE', 'SUCCESS'];
const percent = (progress: string) => Number.parseInt(progress, 10) || 0;

interface Filters {
  channel_id: string;
  user_id: string;
  status: string;
  mj_id: string;
  /** Milliseconds, as the API filters submit_time. */
  start_timestamp: number;
  end_timestamp: number;
}
// The original mixed units here (now × 1000 + 3600); this is now + 1 hour in milliseconds.
const blank = (): Filters => ({ channel_id: '', user_id: '', status: '', mj_id: '', start_timestamp: 0, end_timestamp: Date.now() + 3600_000 });

/** Midjourney tasks; administrators see everyone's with channel, user, submit code and status (console-screens §3.13). */
export default function MidjourneyPage() {
  const { t } = useTranslation('midjourney');
  const admin = useAppSelector((s) => (s.account.user?.role ?? 0) >= ROLE.admin);
  const list = usePagedList<MidjourneyTask, Filters>({
    key: 'midjourney',
    initialOrder: '-submit_time',
    initialFilters: blank(),
    fetch: ({ page, size, order, filters }) => {
      const { channel_id, user_id, ...own } = filters;
      const query = { page, size, order, ...own, start_timestamp: own.start_timestamp || undefined, ...(admin ? { channel_id, user_id } : {}) };
      return api<Page<MidjourneyTask>>(admin ? '/api/mj/' : '/api/mj/self', { query });
    },
  });
  useLiveReload(list.reload, list.rows.some((m) => m.progress !== '100%'));
  const [draft, setDraft] = useState<Filters>(list.filters);
  const reset = () => {
    const b = blank();
    setDraft(b);
    list.setFilters(b);
    list.refresh();
  };

  const code = (c: number) => {
    const known = SUBMIT_CODES[c];
    return <StatusChip label={known ? t(`code.${known.key}`) : String(c)} color={known?.color ?? 'default'} />;
  };
  // The result (status, progress, image, prompt) before the bookkeeping, so it fits a laptop screen.
  const columns: DataColumn<MidjourneyTask>[] = [
    { field: 'mj_id', header: t('taskId'), sortable: true, render: (m) => <ClippedText text={m.mj_id} max={12} label={t('taskId')} /> },
    { field: 'submit_time', header: t('submitTime'), sortable: true, render: (m) => <TimeText value={m.submit_time} ms stacked /> },
    { field: 'action', header: t('type'), sortable: true, render: (m) => <StatusChip label={t(`action.${m.action}`, { defaultValue: m.action })} color={actionColor(m.action)} variant="filled" /> },
    ...(admin ? ([{ field: 'status', header: t('status'), sortable: true, render: (m) => <StatusChip label={t(`statusName.${m.status}`, { defaultValue: m.status || '-' })} color={statusColor(m.status)} /> },] as DataColumn<MidjourneyTask>[]) : []),
    { field: 'progress', header: t('progress'), render: (m) => <TaskProgress percent={percent(m.progress)} failed={m.status === 'FAILURE'} /> },
    { field: 'quota', header: t('cost'), hideOnPhone: true, render: (m) => <TaskCost quota={m.quota} planQuota={m.plan_quota} failed={m.status === 'FAILURE'} /> },
    {
      field: 'image_url',
      header: t('image'),
      render: (m) =>
        m.image_url ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Box component="img" src={m.image_url} alt="" loading="lazy" data-testid={`mj-thumb-${m.id}`} sx={{ width: 40, height: 40, objectFit: 'cover', borderRadius: 1, bgcolor: 'action.selected' }} />
            <ImageButton url={m.image_url} name={m.mj_id} />
          </Stack>
        ) : (
          t('none')
        ),
    },
    { field: 'prompt', header: t('prompt'), hideOnPhone: true, render: (m) => <ClippedText text={m.prompt} max={22} label={t('prompt')} /> },
    {
      field: 'duration',
      header: t('duration'),
      hideOnPhone: true,
      hideBelow: 'xl',
      render: (m) => {
        const s = durationSeconds(m.start_time, m.finish_time, 1000);
        return s === null ? '-' : <StatusChip label={t('seconds', { s })} color={s > 60 ? 'error' : 'success'} />;
      },
    },
    { field: 'fail_reason', header: t('failReason'), hideOnPhone: true, hideBelow: 'xl', render: (m) => <ClippedText text={m.fail_reason} label={t('failReason')} /> },
    ...(admin
      ? ([
          { field: 'channel_id', header: t('channel'), sortable: true, hideOnPhone: true, hideBelow: 'xl' },
          { field: 'user_id', header: t('user'), sortable: true, hideOnPhone: true, hideBelow: 'xl' },
          { field: 'code', header: t('submitResult'), sortable: true, hideBelow: 'xl', render: (m) => code(m.code) },
        ] as DataColumn<MidjourneyTask>[])
      : []),
    { field: 'prompt_en', header: t('promptEn'), hideBelow: 'xl', render: (m) => <ClippedText text={m.prompt_en} label={t('promptEn')} /> },
  ];

  return (
    <Box data-testid="midjourney-page">
      <PageHeader subtitle={t('subtitle')} />
      <Card>
        <FilterBar onSearch={() => list.setFilters(draft)} onReset={reset}>
          {admin && <TextField size="small" type="number" label={t('channelId')} value={draft.channel_id} onChange={(e) => setDraft({ ...draft, channel_id: e.target.value })} />}
          {admin && <TextField size="small" type="number" label={t('userId')} value={draft.user_id} onChange={(e) => setDraft({ ...draft, user_id: e.target.value })} />}
          <TextField select size="small" label={t('statusFilter')} value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })} sx={{ minWidth: 140 }} data-testid="mj-filter-status">
            <MenuItem value="">{t('all')}</MenuItem>
            {STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`statusName.${s}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField size="small" label={t('taskId')} value={draft.mj_id} onChange={(e) => setDraft({ ...draft, mj_id: e.target.value })} slotProps={{ htmlInput: { 'data-testid': 'mj-filter-id' } }} />
          <DateTimeRangeField
            testId="mj-filter-time"
            start={Math.floor(draft.start_timestamp / 1000)}
            end={Math.floor(draft.end_timestamp / 1000)}
            onChange={(from, to) => setDraft({ ...draft, start_timestamp: from * 1000, end_timestamp: to * 1000 })}
            startLabel={t('startTime')}
            endLabel={t('endTime')}
          />
        </FilterBar>
        <DataTable
          columns={columns}
          rowKey={(m) => m.id}
          emptyText={t('empty')}
          {...pagedTableProps(list)}
        />
      </Card>
    </Box>
  );
}
