import { useState } from 'react';
import { Stack, Tab, Tabs } from '@mui/material';
import { useTranslation } from 'react-i18next';
import MultiUserStats from './components/MultiUserStats';
import PeriodPanel from './components/PeriodPanel';
import TotalsCards from './components/TotalsCards';

/** Site-wide figures for administrators (console-screens §3.2) and the multi-user statistics (§12). */
export default function AnalyticsPage() {
  const { t } = useTranslation('analytics');
  const [tab, setTab] = useState(0);
  return (
    <Stack spacing={2.5} data-testid="analytics">
      <TotalsCards />
      <Tabs value={tab} onChange={(_e, v: number) => setTab(v)}>
        <Tab label={t('overview')} data-testid="analytics-tab-overview" />
        <Tab label={t('multiUser')} data-testid="analytics-tab-multi" />
      </Tabs>
      {tab === 0 ? <PeriodPanel /> : <MultiUserStats />}
    </Stack>
  );
}
