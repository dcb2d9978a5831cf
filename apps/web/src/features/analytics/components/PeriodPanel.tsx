import { useCallback, useMemo, useState } from 'react';
import { Alert, Box, Button, Card, Grid, MenuItem, Stack, TextField, Typography } from '@mui/material';
import Search from '@mui/icons-material/Search';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { abbreviate, type AnalyticsPeriod } from '@one-hub/contract';
import StackedBars from '../../../components/charts/StackedBars';
import { api } from '../../../lib/api';
import { daysBetween, lastLocalDays, localDay, seriesTotal, total } from '../../../lib/chart-data';
import { useAppSelector } from '../../../store';
import { PERIOD_TOP, periodCharts } from '../analytics-data';
import RedemptionChart from './RedemptionChart';
import DateRangeField from '../../../components/dates/DateRangeField';

type GroupType = 'model_type' | 'model' | 'channel';
interface PeriodFilter {
  start: string;
  end: string;
  group_type: GroupType;
  user_id: number;
}

const startOf = (day: string) => Math.floor(new Date(`${day}T00:00:00`).getTime() / 1000);
const endOf = (day: string) => Math.floor(new Date(`${day}T23:59:59`).getTime() / 1000);
const dollars = (v: number) => `$${v.toFixed(3)}`;
const count = (v: number) => abbreviate(Math.round(v));
const money = (v: number) => v.toFixed(2);

/** Per-day statistics of a chosen range, grouped by model type, model or channel; applied by Search. */
export default function PeriodPanel() {
  const { t } = useTranslation('analytics');
  const quotaPerUnit = useAppSelector((s) => s.siteInfo.quota_per_unit);
  const week = lastLocalDays(7);
  const [draft, setDraft] = useState<PeriodFilter>({ start: week[0], end: week[6], group_type: 'model_type', user_id: 0 });
  const [applied, setApplied] = useState(draft);
  const today = localDay(new Date());
  const q = useQuery({
    queryKey: ['analytics-period', applied],
    queryFn: () =>
      api<AnalyticsPeriod>('/api/analytics/period', {
        query: { start_timestamp: startOf(applied.start), end_timestamp: endOf(applied.end), group_type: applied.group_type, user_id: applied.user_id, top: PERIOD_TOP },
      }),
  });
  const days = useMemo(() => daysBetween(startOf(applied.start), endOf(applied.end)), [applied]);
  const charts = useMemo(() => (q.data ? periodCharts(q.data, days, quotaPerUnit, { other: t('otherGroup'), rest: t('restGroup') }) : null), [q.data, days, quotaPerUnit, t]);
  // a cleared day falls back to the last seven days' edge
  const search = useCallback(() => {
    const start = draft.start || week[0];
    const end = draft.end || week[6];
    setApplied({ ...draft, start, end: end < start ? start : end });
  }, [draft, week]);
  const loading = q.isLoading;
  const none = { name: '', data: days.map(() => 0) };

  return (
    <Stack spacing={2.5}>
      <Card sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} useFlexGap sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }} component="form" onSubmit={(e) => (e.preventDefault(), search())}>
          <DateRangeField testId="period" start={draft.start} end={draft.end} max={today} onChange={(start, end) => setDraft({ ...draft, start, end })} startLabel={t('start')} endLabel={t('end')} />
          <TextField size="small" select label={t('groupBy')} value={draft.group_type} onChange={(e) => setDraft({ ...draft, group_type: e.target.value as GroupType })} sx={{ minWidth: 160 }}>
            <MenuItem value="model_type">{t('byModelType')}</MenuItem>
            <MenuItem value="model">{t('byModel')}</MenuItem>
            <MenuItem value="channel">{t('byChannel')}</MenuItem>
          </TextField>
          <TextField size="small" type="number" label={t('userId')} helperText={t('userIdHint')} value={draft.user_id} onChange={(e) => setDraft({ ...draft, user_id: Math.max(0, Math.floor(Number(e.target.value) || 0)) })} sx={{ width: { md: 140 } }} />
          <Box sx={{ flex: 1 }} />
          {/* right-aligned, also when a narrow row puts it on a line of its own */}
          <Button type="submit" variant="contained" startIcon={<Search />} data-testid="period-search" sx={{ ml: { md: 'auto' } }}>
            {t('search')}
          </Button>
        </Stack>
      </Card>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="period-heading">
        {t('rangeHeading', { start: applied.start, end: applied.end })}
      </Typography>
      {q.isError && <Alert severity="error">{t('loadFailed')}</Alert>}
      <StackedBars testId="chart-cost" title={t('costChart')} subtitle={t('total', { value: dollars(charts ? seriesTotal(charts.cost) : 0) })} days={days} series={charts?.cost ?? [none]} format={dollars} loading={loading} emptyText={t('noData')} />
      <StackedBars testId="chart-tokens" title={t('tokensChart')} subtitle={t('total', { value: count(charts ? seriesTotal(charts.tokens) : 0) })} days={days} series={charts?.tokens ?? [none]} format={count} loading={loading} emptyText={t('noData')} />
      <StackedBars testId="chart-requests" title={t('requestsChart')} subtitle={t('total', { value: count(charts ? seriesTotal(charts.requests) : 0) })} days={days} series={charts?.requests ?? [none]} format={count} loading={loading} emptyText={t('noData')} />
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <RedemptionChart days={days} redeemed={charts?.redeemed ?? none.data} redeemers={charts?.redeemers ?? none.data} loading={loading} />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <StackedBars
            title={t('registrations')}
            subtitle={t('total', { value: charts ? total(charts.direct) + total(charts.invited) : 0 })}
            days={days}
            series={[
              { name: t('direct'), data: charts?.direct ?? none.data },
              { name: t('invited'), data: charts?.invited ?? none.data },
            ]}
            format={count}
            loading={loading}
            emptyText={t('noData')}
            height={320}
          />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <StackedBars
            title={t('orders')}
            subtitle={t('total', { value: (charts ? total(charts.orders) : 0).toFixed(2) })}
            days={days}
            series={[{ name: t('orderAmount'), data: charts?.orders ?? none.data }]}
            format={money}
            loading={loading}
            emptyText={t('noData')}
            height={320}
          />
        </Grid>
      </Grid>
    </Stack>
  );
}
