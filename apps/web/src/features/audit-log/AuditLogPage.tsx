import { useState } from 'react';
import { Box, Button, Card, MenuItem, TextField } from '@mui/material';
import Download from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import { AUDIT_TARGET_KINDS, type AuditEntry, type Page } from '@one-hub/contract';
import { api, withQuery } from '../../lib/api';
import { DataTable, FilterBar, PageHeader, StatusChip, TimeText, pagedTableProps, usePagedList, type DataColumn } from '../../components/data';
import { auditQuery, EMPTY_FILTERS, type AuditFilters } from './audit-data';
import DateTimeRangeField from '../../components/dates/DateTimeRangeField';
import DiffView from './DiffView';
import RetentionField from './RetentionField';

const fetchAudit = (q: { page: number; size: number; order?: string; filters: AuditFilters }) =>
  api<Page<AuditEntry>>('/api/audit/', { query: { page: q.page, size: q.size, order: q.order, ...auditQuery(q.filters) } });

/** Root's record of every administrator change (who, when, from where, what changed). */
export default function AuditLogPage() {
  const { t } = useTranslation('audit-log');
  const list = usePagedList<AuditEntry, AuditFilters>({ key: 'auditLog', fetch: fetchAudit, initialFilters: EMPTY_FILTERS });
  const [draft, setDraft] = useState<AuditFilters>(EMPTY_FILTERS);
  const set = (k: 'actor' | 'target_kind', v: string) => setDraft((d) => ({ ...d, [k]: v }));

  const columns: DataColumn<AuditEntry>[] = [
    { field: 'created_at', header: t('time'), sortable: true, render: (e) => <TimeText value={e.created_at} /> },
    { field: 'actor_id', header: t('actor'), sortable: true, render: (e) => `${e.actor_name} (#${e.actor_id})` },
    { field: 'ip', header: t('ip'), hideOnPhone: true },
    { field: 'action', header: t('action'), render: (e) => <StatusChip label={t(`actions.${e.action}`, { defaultValue: e.action })} color={e.action === 'delete' || e.action === 'reveal_key' ? 'error' : 'primary'} /> },
    { field: 'target_kind', header: t('target'), sortable: true, render: (e) => `${t(`kinds.${e.target_kind}`, { defaultValue: e.target_kind })}${e.target_id ? ` ${e.target_id}` : ''}` },
  ];
  const active = Object.values(draft).filter(Boolean).length;

  return (
    <Box data-testid="audit-log-page">
      <PageHeader subtitle={t('subtitle')} actions={<RetentionField />} />
      <Card>
        <FilterBar
          onSearch={() => list.setFilters(draft)}
          onReset={() => {
            setDraft(EMPTY_FILTERS);
            list.setFilters(EMPTY_FILTERS);
          }}
          active={active}
          actions={
            <Button startIcon={<Download />} href={withQuery('/api/audit/export', auditQuery(list.filters))} data-testid="audit-export">
              {t('export')}
            </Button>
          }
        >
          <TextField size="small" label={t('actor')} placeholder={t('actorHint')} value={draft.actor} onChange={(e) => set('actor', e.target.value)} slotProps={{ htmlInput: { 'data-testid': 'audit-actor' } }} />
          <TextField size="small" select label={t('target')} value={draft.target_kind} onChange={(e) => set('target_kind', e.target.value)} sx={{ minWidth: 160 }}>
            <MenuItem value="">{t('allKinds')}</MenuItem>
            {AUDIT_TARGET_KINDS.map((k) => (
              <MenuItem key={k} value={k}>
                {t(`kinds.${k}`)}
              </MenuItem>
            ))}
          </TextField>
          <DateTimeRangeField testId="audit-time" start={draft.start} end={draft.end} onChange={(start, end) => setDraft({ ...draft, start, end })} startLabel={t('from')} endLabel={t('to')} />
        </FilterBar>
        <DataTable columns={columns} rowKey={(e) => e.id} emptyText={t('empty')} renderExpanded={(e) => <DiffView diff={e.diff} empty={t('noFields')} />} {...pagedTableProps(list)} />
      </Card>
    </Box>
  );
}
