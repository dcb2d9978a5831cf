import { useMemo, useState } from 'react';
import { Alert, Box, Button, Card, Grid, Stack, TextField, Typography } from '@mui/material';
import Download from '@mui/icons-material/Download';
import Search from '@mui/icons-material/Search';
import type { ApexOptions } from 'apexcharts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { quotaToCurrency, type MultiUserStats as Stats } from '@one-hub/contract';
import Chart from '../../../components/charts/Chart';
import { ApiError, withQuery } from '../../../lib/api';
import { lastLocalDays } from '../../../lib/chart-data';
import { showError } from '../../../lib/toast';
import { useAppSelector } from '../../../store';
import { attachmentName, modelUsageSeries, parseUsernames } from '../analytics-data';
import DateRangeField from '../../../components/dates/DateRangeField';

interface Query {
  usernames: string;
  start_time: string;
  end_time: string;
}

/** The endpoint answers `model_usage` beside `data`, so the envelope is read here rather than by `api()`. */
async function fetchStats(q: Query): Promise<Stats> {
  const res = await fetch(withQuery('/api/analytics/multi_user_stats', { ...q }), { credentials: 'same-origin' });
  const body = (await res.json().catch(() => null)) as { success?: boolean; message?: string; data?: Stats['data']; model_usage?: Stats['model_usage'] } | null;
  if (!res.ok || !body?.success) throw new ApiError(body?.message || `HTTP ${res.status}`, res.ok ? 200 : res.status, body?.message);
  return { data: body.data ?? [], model_usage: body.model_usage ?? [] };
}

/** Totals and model usage of several named users over a date range, with a CSV download. */
export default function MultiUserStats() {
  const { t } = useTranslation('analytics');
  const quotaPerUnit = useAppSelector((s) => s.siteInfo.quota_per_unit);
  const week = lastLocalDays(7);
  const [draft, setDraft] = useState<Query>({ usernames: '', start_time: week[0], end_time: week[6] });
  const [applied, setApplied] = useState<Query | null>(null);
  const q = useQuery({ queryKey: ['multi-user-stats', applied], queryFn: () => fetchStats(applied!), enabled: applied !== null, retry: false });
  const chart = useMemo(() => (q.data ? modelUsageSeries(q.data) : null), [q.data]);
  const options = useMemo<ApexOptions>(
    () => ({ chart: { stacked: true }, plotOptions: { bar: { columnWidth: '45%' } }, xaxis: { categories: chart?.users ?? [] }, legend: { position: 'bottom' }, dataLabels: { enabled: false } }),
    [chart],
  );

  const normalised = (): Query | null => {
    const names = parseUsernames(draft.usernames);
    if (names.length === 0) {
      showError(new Error(t('usernamesRequired')));
      return null;
    }
    return { ...draft, usernames: names.join(','), start_time: draft.start_time || week[0], end_time: draft.end_time || week[6] };
  };
  const search = () => {
    const next = normalised();
    if (next) setApplied(next);
  };
  const exportCsv = async () => {
    const next = normalised();
    if (!next) return;
    try {
      const res = await fetch(withQuery('/api/analytics/multi_user_stats/export', { ...next }), { credentials: 'same-origin' });
      if (!res.ok) throw new ApiError(((await res.json().catch(() => null)) as { message?: string } | null)?.message || `HTTP ${res.status}`, res.status);
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = attachmentName(res.headers.get('content-disposition'), 'multi_user_stats.csv');
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      showError(e);
    }
  };

  return (
    <Stack spacing={2.5}>
      <Card sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} useFlexGap sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }} component="form" onSubmit={(e) => (e.preventDefault(), search())}>
          <TextField size="small" label={t('usernames')} placeholder="alice,bob" value={draft.usernames} onChange={(e) => setDraft({ ...draft, usernames: e.target.value })} sx={{ flex: 1 }} slotProps={{ htmlInput: { 'data-testid': 'multi-usernames' } }} />
          <DateRangeField testId="multi-range" start={draft.start_time} end={draft.end_time} onChange={(start_time, end_time) => setDraft({ ...draft, start_time, end_time })} startLabel={t('start')} endLabel={t('end')} />
          <Button type="submit" variant="contained" startIcon={<Search />} data-testid="multi-search">
            {t('search')}
          </Button>
          <Button variant="outlined" startIcon={<Download />} onClick={() => void exportCsv()} data-testid="multi-export">
            {t('exportCsv')}
          </Button>
        </Stack>
      </Card>
      {q.isError && <Alert severity="error">{q.error instanceof Error ? q.error.message : t('loadFailed')}</Alert>}
      {!applied && <Typography color="text.secondary">{t('multiHint')}</Typography>}
      {q.data && q.data.data.length === 0 && <Typography color="text.secondary">{t('noData')}</Typography>}
      <Grid container spacing={2}>
        {q.data?.data.map((u) => (
          <Grid key={u.username} size={{ xs: 12, sm: 6, lg: 3 }}>
            <Card sx={{ p: 2 }} data-testid={`user-stats-${u.username}`}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                {u.username}
              </Typography>
              <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1, mt: 1 }}>
                {[
                  [t('requests'), String(u.request_count)],
                  [t('quota'), quotaToCurrency(u.quota, quotaPerUnit, 6)],
                  [t('inputTokens'), String(u.prompt_tokens)],
                  [t('outputTokens'), String(u.completion_tokens)],
                ].map(([label, value]) => (
                  <Box key={label}>
                    <Typography variant="caption" color="text.secondary">
                      {label}
                    </Typography>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {value}
                    </Typography>
                  </Box>
                ))}
              </Box>
            </Card>
          </Grid>
        ))}
      </Grid>
      {chart && chart.users.length > 0 && (
        <Card sx={{ p: 2.5 }}>
          <Typography variant="h6">{t('modelUsage')}</Typography>
          <Chart type="bar" height={360} series={chart.series} options={options} empty={chart.series.length === 0} emptyText={t('noData')} />
        </Card>
      )}
    </Stack>
  );
}
