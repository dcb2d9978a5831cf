import { useMediaQuery, useTheme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import StackedBars from '../../../components/charts/StackedBars';
import { seriesTotal, type Series } from '../../../lib/chart-data';

const dollars = (v: number) => `$${v.toFixed(3)}`;

/** Stacked bars of each model's cost per day over the week, in dollars. */
export default function WeekModelChart({ days, series, loading, failed }: { days: string[]; series: Series[]; loading: boolean; failed?: boolean }) {
  const { t } = useTranslation('dashboard');
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  return (
    <StackedBars
      testId="week-model-chart"
      totalTestId="week-total"
      title={t('weekModels')}
      subtitle={failed ? undefined : t('total', { value: dollars(seriesTotal(series)) })}
      days={days}
      series={series}
      format={dollars}
      loading={loading}
      emptyText={failed ? t('loadFailed') : t('noData')}
      height={phone ? 360 : 480}
    />
  );
}
