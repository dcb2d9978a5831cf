import { Stack, Typography } from '@mui/material';
import type { TFunction } from 'i18next';
import type { LogEntry } from '@one-hub/contract';
import { StatusChip, TimeText, type DataColumn } from '../../../components/data';
import { logType } from '../log-data';
import { DurationCell, GroupCell, InputCell } from './LogCells';
import { DetailCell, QuotaCell } from './QuotaCell';

export interface LogColumn extends DataColumn<LogEntry> {
  adminOnly?: boolean;
  /** Out of the row by default below 1536 px, shown in its expanded panel (the column chooser can show it again). */
  wideOnly?: boolean;
  /** Likewise below 1440 px: a 1366×768 screen folds it, a 1440×900 one shows it. */
  laptopOnly?: boolean;
}

/** Columns hidden until the reader chooses otherwise: the wide-only ones under 1536 px, the laptop-only ones under 1440 px. */
export function defaultHiddenColumns(columns: LogColumn[], wide: boolean, laptop = true): string[] {
  return columns.filter((c) => (c.wideOnly && !wide) || (c.laptopOnly && !laptop)).map((c) => c.field);
}

/** Every log column in display order (console-screens §3.4). */
export function logColumns(t: TFunction<'log'>): LogColumn[] {
  return [
    { field: 'created_at', header: t('col.time'), sortable: true, align: 'left', render: (l) => <TimeText value={l.created_at} stacked /> },
    {
      field: 'channel_id',
      header: t('col.channel'),
      sortable: true,
      adminOnly: true,
      laptopOnly: true,
      render: (l) =>
        l.channel_id ? (
          <Typography variant="body2" noWrap title={l.channel?.name} sx={{ maxWidth: 100 }}>
            {`${l.channel_id}${l.channel?.name ? ` (${l.channel.name})` : ''}`}
          </Typography>
        ) : (
          ''
        ),
    },
    { field: 'user_id', header: t('col.user'), sortable: true, adminOnly: true, render: (l) => (l.username ? <StatusChip label={l.username} copyText={l.username} title={l.username} sx={{ maxWidth: 110 }} /> : '') },
    { field: 'group', header: t('col.group'), wideOnly: true, render: (l) => (l.type === 2 ? <GroupCell log={l} /> : '') },
    { field: 'token_name', header: t('col.token'), sortable: true, render: (l) => (l.token_name ? <StatusChip label={l.token_name} color="primary" copyText={l.token_name} title={l.token_name} sx={{ maxWidth: { xs: 200, sm: 110 } }} /> : '') },
    {
      field: 'type',
      header: t('col.type'),
      sortable: true,
      render: (l) => {
        const type = logType(l.type);
        return <StatusChip variant="filled" color={type?.tone ?? 'error'} label={type ? t(`type.${type.key}`) : t('type.unknown')} />;
      },
    },
    {
      field: 'model_name',
      header: t('col.model'),
      sortable: true,
      render: (l) =>
        l.model_name ? (
          <Stack spacing={0.25} sx={{ alignItems: 'flex-end' }}>
            <StatusChip label={l.model_name} color="primary" variant="outlined" copyText={l.model_name} title={l.model_name} sx={{ maxWidth: { xs: 220, sm: 170 } }} />
            {l.is_stream && (
              <Typography variant="caption" color="info.main" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {t('stream')}
              </Typography>
            )}
          </Stack>
        ) : (
          ''
        ),
    },
    {
      field: 'duration',
      header: t('col.duration'),
      headerHint: t('speedHelp'),
      render: (l) => (l.type === 2 ? <DurationCell log={l} /> : ''),
    },
    { field: 'prompt_tokens', header: t('col.input'), render: (l) => (l.type === 2 ? <InputCell log={l} /> : '') },
    { field: 'completion_tokens', header: t('col.output'), render: (l) => (l.type === 2 ? l.completion_tokens : '') },
    { field: 'quota', header: t('col.quota'), render: (l) => <QuotaCell log={l} /> },
    { field: 'source_ip', header: t('col.sourceIp'), wideOnly: true },
    { field: 'detail', header: t('col.detail'), wideOnly: true, render: (l) => <DetailCell log={l} /> },
  ];
}
