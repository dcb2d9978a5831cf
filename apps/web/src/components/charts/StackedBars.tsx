import { useMemo } from 'react';
import { Card, Skeleton, Typography, useMediaQuery, useTheme } from '@mui/material';
import type { ApexOptions } from 'apexcharts';
import Chart from './Chart';
import type { Series } from '../../lib/chart-data';
import { stackedMax, valueAxis } from '../../lib/chart-scale';

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
  /** The total line's test id (default `<testId>-total`). */
  totalTestId?: string;
}

/**
 * A card with a stacked bar chart of per-day series, totals above the bars. The value axis never repeats
 * a label, the totals sit in padding above the plot (clear of the axis text) in the theme's text colour,
 * and while loading the total and the chart are skeletons rather than zeros.
 */
export default function StackedBars({ title, subtitle, days, series, format, loading, emptyText, height = 360, testId, totalTestId }: Props) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const textColour = theme.palette.text.primary;
  const options = useMemo<ApexOptions>(() => {
    const axis = valueAxis(stackedMax(series), format);
    return {
      chart: { stacked: true, toolbar: { show: true, tools: { download: false, selection: false, zoom: true, zoomin: true, zoomout: true, pan: false, reset: true } } },
      plotOptions: {
        bar: { columnWidth: '55%', dataLabels: { total: { enabled: !phone && days.length <= 14, offsetY: -2, style: { fontSize: '11px', color: textColour }, formatter: (v?: string | number) => (Number(v ?? 0) ? format(Number(v)) : '') } } },
      },
      dataLabels: { enabled: false },
      grid: { padding: { top: 18 } },
      xaxis: { categories: days, labels: { hideOverlappingLabels: true, rotateAlways: false } },
      yaxis: { min: 0, max: axis.max, tickAmount: axis.tickAmount, forceNiceScale: false, labels: { formatter: (v: number) => format(v) } },
      legend: { position: 'bottom' },
      tooltip: { y: { formatter: (v: number) => format(v) } },
    };
  }, [days, format, phone, series, textColour]);
  const empty = !loading && series.every((s) => s.data.every((v) => v === 0));
  return (
    <Card sx={{ p: 2.5, height: '100%', minWidth: 0 }} data-testid={testId} aria-busy={loading}>
      <Typography variant="h6" sx={{ overflowWrap: 'anywhere' }}>{title}</Typography>
      {loading ? (
        <Skeleton width={120} data-testid={testId && `${testId}-loading`} />
      ) : (
        subtitle && (
          <Typography variant="body2" color="text.secondary" data-testid={totalTestId ?? (testId && `${testId}-total`)}>
            {subtitle}
          </Typography>
        )
      )}
      {loading ? <Skeleton variant="rounded" height={height} sx={{ mt: 1 }} /> : <Chart type="bar" height={height} series={series} options={options} empty={empty} emptyText={emptyText} />}
    </Card>
  );
}
