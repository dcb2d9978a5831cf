import { lazy, Suspense, useMemo } from 'react';
import { Box, Skeleton, Typography, useTheme } from '@mui/material';
import type { ApexOptions } from 'apexcharts';
import type { Props as ChartProps } from 'react-apexcharts';

const ApexChart = lazy(() => import('react-apexcharts'));

/** 21 distinct colours for stacked model series (console-screens §3.1). */
export const SERIES_COLOURS = [
  '#008FFB', '#00E396', '#FEB019', '#FF4560', '#775DD0', '#3F51B5', '#03A9F4', '#4CAF50', '#F9CE1D', '#FF9800', '#33B2DF',
  '#546E7A', '#D4526E', '#13D8AA', '#A5978B', '#4ECDC4', '#C7F464', '#81D4FA', '#FD6A6A', '#2B908F', '#F9A3A4',
];

function merge(base: ApexOptions, extra: ApexOptions): ApexOptions {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const b = out[k];
    out[k] = b && v && typeof b === 'object' && typeof v === 'object' && !Array.isArray(v) ? { ...b, ...v } : v;
  }
  return out as ApexOptions;
}

interface Props {
  type: NonNullable<ChartProps['type']>;
  series: ApexOptions['series'];
  options: ApexOptions;
  height: number | string;
  /** Shown instead of the chart when true. */
  empty?: boolean;
  emptyText?: string;
  testId?: string;
}

/** An ApexCharts chart following the console theme (light/dark, font), loaded on first use. */
export default function Chart({ type, series, options, height, empty, emptyText, testId }: Props) {
  const theme = useTheme();
  const themed = useMemo(
    () =>
      merge(
        {
          chart: { background: 'transparent', fontFamily: theme.typography.fontFamily, foreColor: theme.palette.text.secondary, toolbar: { show: false } },
          theme: { mode: theme.palette.mode },
          grid: { borderColor: theme.palette.divider },
          tooltip: { theme: theme.palette.mode },
          colors: SERIES_COLOURS,
        },
        options,
      ),
    [theme, options],
  );
  if (empty) {
    return (
      <Box data-testid={testId} sx={{ height, display: 'grid', placeItems: 'center' }}>
        <Typography color="text.secondary">{emptyText}</Typography>
      </Box>
    );
  }
  return (
    <Box data-testid={testId} sx={{ minHeight: height, '& .apexcharts-menu': { color: '#333' } }}>
      <Suspense fallback={<Skeleton variant="rounded" height={height} />}>
        <ApexChart type={type} series={series} options={themed} height={height} width="100%" />
      </Suspense>
    </Box>
  );
}
