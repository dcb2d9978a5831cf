import { useState } from 'react';
import { Alert, Box, Button, Card, FormControlLabel, InputAdornment, LinearProgress, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import Search from '@mui/icons-material/Search';
import ClearAll from '@mui/icons-material/ClearAll';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTimestampMs, type SystemLogEntry } from '@one-hub/contract';
import { api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { PageHeader, StatusChip, RefreshButton } from '../../components/data';
import { JobsCard } from './components/JobsCard';
import { DEFAULT_MAX_ENTRIES, DEFAULT_REFRESH, MAX_ENTRIES_LIMIT, REFRESH_SECONDS, entryCount, levelColor, visibleEntries } from './system-log';

const fetchLog = (count: number) => api<SystemLogEntry[]>('/api/system_info/log', { method: 'POST', json: { count } });

function LogLine({ entry }: { entry: SystemLogEntry }) {
  return (
    <Box
      data-testid="log-line"
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' }, py: 0.75, px: 1.5, borderBottom: 1, borderColor: 'divider', '& > span': { lineHeight: '24px' } }}
    >
      <Typography component="span" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
        {formatTimestampMs(Date.parse(entry.Timestamp))}
      </Typography>
      <StatusChip label={entry.Level.toUpperCase()} color={levelColor(entry.Level)} sx={{ fontFamily: 'monospace', minWidth: 56 }} />
      <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-word', flex: '1 1 100%', minWidth: 0 }}>
        {entry.Message}
      </Typography>
    </Box>
  );
}

/** Root's server log viewer (console-screens §12): the newest lines, searched, cleared, refreshed on a timer. */
export default function SystemInfoPage() {
  const { t } = useTranslation('system-info');
  const { t: common } = useTranslation();
  const [auto, setAuto] = useState(false);
  const [seconds, setSeconds] = useState<number>(DEFAULT_REFRESH);
  const [maxText, setMaxText] = useState(String(DEFAULT_MAX_ENTRIES));
  const [count, setCount] = useState(DEFAULT_MAX_ENTRIES);
  const [search, setSearch] = useState('');
  const [clearedAt, setClearedAt] = useState<string | null>(null);
  const log = useQuery({ queryKey: ['system-log', count], queryFn: () => fetchLog(count), refetchInterval: auto ? seconds * 1000 : false, retry: false });

  const applyCount = () => {
    const n = entryCount(maxText);
    setMaxText(String(n));
    setCount(n);
  };
  const entries = log.data ?? [];
  const shown = visibleEntries(entries, search, clearedAt);
  const clear = () => setClearedAt(entries.at(-1)?.Timestamp ?? clearedAt);

  let body;
  if (log.error && !log.data) {
    body = (
      <Alert severity="error" data-testid="log-error" action={<Button color="inherit" size="small" onClick={() => void log.refetch()}>{common('table.retry')}</Button>} sx={{ m: 2 }}>
        {describeError(log.error, common).text}
      </Alert>
    );
  } else if (!log.data) {
    body = <LinearProgress sx={{ m: 2 }} />;
  } else if (!shown.length) {
    body = (
      <Typography color="text.secondary" sx={{ p: 4, textAlign: 'center' }} data-testid="log-empty">
        {search.trim() && entries.length ? t('noMatch') : t('empty')}
      </Typography>
    );
  } else {
    body = shown.map((e, i) => <LogLine key={`${e.Timestamp}-${i}`} entry={e} />);
  }

  return (
    <Box data-testid="system-info-page">
      <PageHeader subtitle={t('subtitle')} />
      <JobsCard />
      <Card>
        <Stack direction="row" sx={{ p: 2, gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
          <FormControlLabel control={<Switch checked={auto} onChange={(e) => setAuto(e.target.checked)} />} label={t('autoRefresh')} sx={{ mr: 0 }} />
          <TextField select size="small" label={t('interval')} value={seconds} onChange={(e) => setSeconds(Number(e.target.value))} disabled={!auto} sx={{ width: 120 }}>
            {REFRESH_SECONDS.map((s) => (
              <MenuItem key={s} value={s}>
                {s < 60 ? t('seconds', { n: s }) : t('minute')}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            type="number"
            label={t('maxEntries')}
            value={maxText}
            onChange={(e) => setMaxText(e.target.value)}
            onBlur={applyCount}
            onKeyDown={(e) => e.key === 'Enter' && applyCount()}
            slotProps={{ htmlInput: { min: 1, max: MAX_ENTRIES_LIMIT, 'data-testid': 'log-max' } }}
            sx={{ width: 120 }}
          />
          <TextField
            size="small"
            placeholder={t('search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> }, htmlInput: { 'aria-label': t('search'), 'data-testid': 'log-search' } }}
            sx={{ flex: { xs: '1 1 100%', md: '1 1 200px' }, minWidth: 0, order: { xs: 1, md: 0 } }}
          />
          <Stack direction="row" sx={{ gap: 1, alignItems: 'center', ml: { md: 'auto' } }}>
            <RefreshButton label={t('refresh')} onClick={() => void log.refetch()} />
            <Button variant="outlined" startIcon={<ClearAll />} onClick={clear} disabled={!entries.length} data-testid="log-clear">
              {t('clear')}
            </Button>
          </Stack>
        </Stack>
        <Typography variant="caption" color="text.secondary" sx={{ px: 2, display: 'block', mb: 1 }} data-testid="log-summary">
          {t('summary', { shown: shown.length, total: entries.length })}
          {log.dataUpdatedAt > 0 && ` · ${t('updated', { time: formatTimestampMs(log.dataUpdatedAt).slice(11) })}`}
        </Typography>
        {log.isFetching && log.data ? <LinearProgress sx={{ height: 2 }} /> : <Box sx={{ height: 2 }} />}
        <Box sx={{ maxHeight: '65vh', overflowY: 'auto', borderTop: 1, borderColor: 'divider' }}>{body}</Box>
      </Card>
    </Box>
  );
}
