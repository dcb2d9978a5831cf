import { useMemo } from 'react';
import { Card, Typography, useMediaQuery, useTheme } from '@mui/material';
import type { ApexOptions } from 'apexcharts';
import { useTranslation } from 'react-i18next';
import Chart from '../../../components/charts/Chart';
import { seriesTotal, type Series } from '../../../lib/chart-data';

/** Stacked bars of each model's cost per day over the week, in dollars. */
export default function WeekModelChart({ days, series, loading }: { days: string[]; series: Series[]; loading: boolean }) {
  const { t } = useTranslation('dashboard');
  const sum = seriesTotal(series);
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const options = useMemo<ApexOptions>(
    () => ({
      chart: { stacked: true, toolbar: { show: true, tools: { download: false, selection: true, zoom: true, zoomin: true, zoomout: true, pan: false, reset: true } } },
      plotOptions: { bar: { columnWidth: '50%', dataLabels: { total: { enabled: !phone, style: { fontSize: '11px' }, formatter: (v?: string | number) => (Number(v ?? 0) ? `$${Number(v).toFixed(3)}` : '') } } } },
      dataLabels: { enabled: false },
      xaxis: { categories: days },
      yaxis: { labels: { formatter: (v: number) => `$${v.toFixed(3)}` } },
      legend: { position: 'bottom' },
      tooltip: { y: { formatter: (v: number) => `$${v.toFixed(3)}` } },
    }),
    [days, phone],
  );
  return (
    <Card sx={{ p: 2.5 }}>
      <Typography variant="h6">{t('weekModels')}</Typography>
      <Typography variant="body2" color="text.secondary" data-testid="week-total">
        {t('total', { value: `$${sum.toFixed(3)}` })}
      </Typography>
      <Chart type="bar" height={phone ? 360 : 480} series={series} options={options} empty={!loading && series.length === 0} emptyText={t('noData')} testId="week-model-chart" />
    </Card>
  );
}
