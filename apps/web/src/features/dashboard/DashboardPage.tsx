import { useMemo, useState } from 'react';
import { Alert, Button, Grid, Stack, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { abbreviate, type DashboardRow } from '@one-hub/contract';
import { api } from '../../lib/api';
import { lastLocalDays, quotaDollars } from '../../lib/chart-data';
import { useAppSelector } from '../../store';
import { dailyTotals, modelCostSeries, modelRequestShares, statCard } from './dashboard-data';
import BalanceCard from './components/BalanceCard';
import InviteCard from './components/InviteCard';
import ModelPie from './components/ModelPie';
import ModelsStrip from './components/ModelsStrip';
import PlanCard from './components/PlanCard';
import QuickStart from './components/QuickStart';
import RpmCard from './components/RpmCard';
import StatusPanel from './components/StatusPanel';
import StatCard from './components/StatCard';
import UsageTable from './components/UsageTable';
import WeekModelChart from './components/WeekModelChart';

const count = (v: number) => abbreviate(Math.round(v));
const dollars = (v: number) => `$${v.toFixed(3)}`;

/** The user's week at a glance (console-screens §3.1). */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const quotaPerUnit = useAppSelector((s) => s.siteInfo.quota_per_unit);
  const uptime = useAppSelector((s) => Boolean(s.siteInfo.UptimeEnabled));
  const [view, setView] = useState<'dashboard' | 'status'>('dashboard');
  const dashboard = useQuery({ queryKey: ['dashboard'], queryFn: () => api<DashboardRow[]>('/api/user/dashboard') });
  const rows = useMemo(() => dashboard.data ?? [], [dashboard.data]);
  const days = useMemo(() => lastLocalDays(7), []);
  const totals = useMemo(() => dailyTotals(rows, days), [rows, days]);
  const requests = statCard(totals.map((d) => d.requests));
  const cost = statCard(totals.map((d) => quotaDollars(d.quota, quotaPerUnit)));
  const tokens = statCard(totals.map((d) => d.promptTokens + d.completionTokens));
  const series = useMemo(() => modelCostSeries(rows, days, quotaPerUnit), [rows, days, quotaPerUnit]);
  const shares = useMemo(() => modelRequestShares(rows), [rows]);
  const loading = dashboard.isLoading;
  // Nothing loaded: the week's zeros would be invented, so the charts and the table say it failed.
  const failed = dashboard.isError && !dashboard.data;

  const switcher = uptime && (
    <ToggleButtonGroup exclusive size="small" color="primary" value={view} onChange={(_e, v: typeof view | null) => v && setView(v)} sx={{ alignSelf: 'flex-start', '& .MuiToggleButton-root': { borderRadius: 5, px: 2 } }}>
      <ToggleButton value="dashboard">{t('tabDashboard')}</ToggleButton>
      <ToggleButton value="status" data-testid="status-tab">
        {t('tabStatus')}
      </ToggleButton>
    </ToggleButtonGroup>
  );
  if (uptime && view === 'status') {
    return (
      <Stack spacing={2.5}>
        {switcher}
        <StatusPanel />
      </Stack>
    );
  }
  return (
    <Stack spacing={2.5} data-testid="dashboard">
      {switcher}
      <ModelsStrip />
      {dashboard.isError && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void dashboard.refetch()}>
              {t('retry')}
            </Button>
          }
        >
          {t('loadFailed')}
        </Alert>
      )}
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard testId="stat-requests" title={t('todayRequests')} value={count(requests.today)} data={requests} days={days} colour="#60A5FA" loading={loading} failed={dashboard.isError} format={count} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard testId="stat-cost" title={t('todayCost')} value={dollars(cost.today)} data={cost} days={days} colour="#FBBF24" loading={loading} failed={dashboard.isError} format={dollars} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard testId="stat-tokens" title={t('todayTokens')} value={count(tokens.today)} data={tokens} days={days} colour="#F87171" loading={loading} failed={dashboard.isError} format={count} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <RpmCard />
        </Grid>
        <Grid size={{ xs: 12, lg: 8 }}>
          <Stack spacing={2.5}>
            <WeekModelChart days={days} series={series} loading={loading} failed={failed} />
            <UsageTable days={failed ? [] : totals} loading={loading} error={dashboard.error ?? undefined} />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <Stack spacing={2.5}>
            <BalanceCard />
            <PlanCard />
            <ModelPie shares={shares} loading={loading} failed={failed} />
            <QuickStart />
            <InviteCard />
          </Stack>
        </Grid>
      </Grid>
    </Stack>
  );
}
