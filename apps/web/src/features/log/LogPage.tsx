import { useMemo, useState } from 'react';
import { Box, Card, Tab, Tabs, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ROLE, type LogEntry, type LogPage } from '@one-hub/contract';
import { DataTable, FilterBar, LAPTOP, PageHeader, pagedTableProps, usePagedList } from '../../components/data';
import { api } from '../../lib/api';
import { useServerText } from '../../lib/server-text';
import { readJson, writeJson } from '../../lib/storage';
import { useAppSelector } from '../../store';
import { LOG_TYPES } from './log-data';
import ColumnSettings from './components/ColumnSettings';
import LogFilters, { logFilterColumns, type LogFilterValues } from './components/LogFilters';
import { defaultHiddenColumns, logColumns } from './components/log-columns';
import QuotaDetail from './components/QuotaDetail';
import CaptureView from './components/CaptureView';

/** Hidden log columns, remembered (the original forgot them, console-screens §14.6). */
const HIDDEN_COLUMNS_KEY = 'log_hidden_columns';

type Filters = LogFilterValues & { log_type: number };

const blankFilters = (): Filters => ({
  token_name: '',
  model_name: '',
  source_ip: '',
  start_timestamp: 0,
  end_timestamp: Math.floor(Date.now() / 1000) + 3600,
  channel_id: '',
  username: '',
  log_type: 0,
});

/** Request, top-up, management and system logs; administrators see everyone's (console-screens §3.4). */
export default function LogPage() {
  const { t } = useTranslation('log');
  const { logText } = useServerText();
  const admin = useAppSelector((s) => (s.account.user?.role ?? 0) >= ROLE.admin);
  const root = useAppSelector((s) => (s.account.user?.role ?? 0) >= ROLE.root);
  const list = usePagedList<LogEntry, Filters>({
    key: 'log',
    initialOrder: '-created_at',
    initialFilters: blankFilters(),
    fetch: ({ page, size, order, filters }) => {
      const { channel_id, username, ...own } = filters;
      const query = { page, size, order, ...own, ...(admin ? { channel_id, username } : {}) };
      return api<LogPage>(admin ? '/api/log/' : '/api/log/self', { query });
    },
  });
  const [draft, setDraft] = useState<Filters>(list.filters);
  // The chooser shows exactly the columns on screen: a stored choice, else the defaults for this width.
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('xl'));
  const laptop = useMediaQuery(theme.breakpoints.up(LAPTOP));
  const [chosen, setChosen] = useState<string[] | null>(() => readJson<string[]>(HIDDEN_COLUMNS_KEY));
  const setHidden = (h: string[]) => {
    writeJson(HIDDEN_COLUMNS_KEY, h);
    setChosen(h);
  };
  const all = useMemo(() => logColumns(t).filter((c) => admin || !c.adminOnly), [t, admin]);
  const hidden = chosen ?? defaultHiddenColumns(all, wide, laptop);
  const columns = all.filter((c) => !hidden.includes(c.field));
  // Secondary columns left out of the row (group, source IP, detail) still open with it.
  const folded = all.filter((c) => (c.wideOnly || c.laptopOnly) && hidden.includes(c.field));
  // A folded detail already shows a row's text in the expanded panel.
  const detailFolded = folded.some((c) => c.field === 'detail');

  const setType = (log_type: number) => {
    setDraft({ ...draft, log_type });
    list.setFilters({ ...list.filters, log_type });
  };
  const reset = () => {
    const blank = blankFilters();
    setDraft(blank);
    list.setFilters(blank);
    list.refresh();
  };

  return (
    <>
      <PageHeader subtitle={t('subtitle')} />
      <Card>
        <Tabs value={draft.log_type} onChange={(_e, v: number) => setType(v)} variant="scrollable" scrollButtons="auto" sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
          {LOG_TYPES.map((type) => (
            <Tab key={type.value} value={type.value} label={t(`type.${type.key}`)} data-testid={`log-tab-${type.key}`} />
          ))}
        </Tabs>
        <FilterBar columns={logFilterColumns(admin)} onSearch={() => list.setFilters(draft)} onReset={reset} actions={<ColumnSettings columns={all} hidden={hidden} onChange={setHidden} />}>
          <LogFilters value={draft} onChange={(v) => setDraft({ ...draft, ...v })} admin={admin} />
        </FilterBar>
        <DataTable
          columns={columns}
          folded={folded}
          rowKey={(l) => l.key}
          renderExpanded={(l) => (
            <Box sx={{ textAlign: 'left' }}>
              {l.type === 2 ? <QuotaDetail log={l} /> : !detailFolded && <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>{logText(l) || '-'}</Typography>}
              {l.request_id && l.type === 5 && (
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }} data-testid="log-request-id">
                  {t('requestId', { id: l.request_id })}
                </Typography>
              )}
              {root && l.request_id && <CaptureView requestId={l.request_id} />}
            </Box>
          )}
          {...pagedTableProps(list)}
        />
      </Card>
    </>
  );
}
