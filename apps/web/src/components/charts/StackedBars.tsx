import { useMemo } from 'react';
import { Card, Typography, useMediaQuery, useTheme } from '@mui/material';
import type { ApexOptions } from 'apexcharts';
import Chart from './Chart';
import type { Series } from '../../lib/chart-data';

interface Props {
  title: string;
  /** A line under the title (usually the total). */
  subtitle?: string;
  days: string[];
  series: Series[];
  format: (v: number) => string;
  loading: boolean;
  emptyText: string;
  height?: number;
  testId?: string;
}

/** A card with a stacked bar chart of per-day series, totals above the bars. */
export default function StackedBars({ title, subtitle, days, series, format, loading, emptyText, height = 360, testId }: Props) {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const options = useMemo<ApexOptions>(
    () => ({
      chart: { stacked: true, toolbar: { show: true, tools: { download: false, selection: false, zoom: true, zoomin: true, zoomout: true, pan: false, reset: true } } },
      plotOptions: { bar: { columnWidth: '55%', dataLabels: { total: { enabled: !phone && days.length <= 14, style: { fontSize: '11px' }, formatter: (v?: string | number) => (Number(v ?? 0) ? format(Number(v)) : '') } } } },
      dataLabels: { enabled: false },
      xaxis: { categories: days },
      yaxis: { labels: { formatter: (v: number) => format(v) } },
      legend: { position: 'bottom' },
      tooltip: { y: { formatter: (v: number) => format(v) } },
    }),
    [days, format, phone],
  );
  const empty = !loading && series.every((s) => s.data.every((v) => v === 0));
  return (
    <Card sx={{ p: 2.5, height: '100%' }} data-testid={testId}>
      <Typography variant="h6">{title}</Typography>
      {subtitle && (
        <Typography variant="body2" color="text.secondary" data-testid={testId && `${testId}-total`}>
          {subtitle}
        </Typography>
      )}
      <Chart type="bar" height={height} series={series} options={options} empty={empty} emptyText={emptyText} />
    </Card>
  );
}
