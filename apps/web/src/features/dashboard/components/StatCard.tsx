import { useMemo } from 'react';
import { Box, Card, Chip, Skeleton, Stack, Typography } from '@mui/material';
import TrendingUp from '@mui/icons-material/TrendingUp';
import TrendingDown from '@mui/icons-material/TrendingDown';
import TrendingFlat from '@mui/icons-material/TrendingFlat';
import type { ApexOptions } from 'apexcharts';
import Chart from '../../../components/charts/Chart';
import type { StatCardData } from '../dashboard-data';

interface Props {
  title: string;
  value: string;
  data: StatCardData;
  days: string[];
  colour: string;
  loading: boolean;
  /** The data could not be loaded: no figure, trend or sparkline (a 0 would read as real). */
  failed?: boolean;
  testId: string;
  format: (v: number) => string;
}

/** A figure for today with its change against yesterday (up red, down green) and a 7-day sparkline. */
export default function StatCard({ title, value, data, days, colour, loading, failed, testId, format }: Props) {
  const options = useMemo<ApexOptions>(
    () => ({
      chart: { sparkline: { enabled: true }, animations: { enabled: false } },
      colors: [colour],
      stroke: { curve: 'smooth', width: 2 },
      fill: { type: 'gradient', gradient: { opacityFrom: 0.45, opacityTo: 0.05 } },
      xaxis: { type: 'datetime', categories: days },
      tooltip: { x: { format: 'yyyy-MM-dd' }, y: { formatter: format, title: { formatter: () => '' } } },
    }),
    [colour, days, format],
  );
  const trend = data.trend;
  const chip =
    trend > 0 ? { icon: <TrendingUp />, color: 'error' as const } : trend < 0 ? { icon: <TrendingDown />, color: 'success' as const } : { icon: <TrendingFlat />, color: 'info' as const };
  return (
    <Card data-testid={testId} sx={{ p: 2.5, height: '100%' }}>
      <Typography variant="body2" color="text.secondary">
        {title}
      </Typography>
      {loading ? (
        <Skeleton variant="text" width="60%" sx={{ fontSize: 32 }} />
      ) : failed ? (
        <Typography variant="h4" data-testid={`${testId}-value`} color="text.disabled" sx={{ fontWeight: 600, mt: 0.5 }}>
          —
        </Typography>
      ) : (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
          <Typography variant="h4" data-testid={`${testId}-value`} sx={{ fontWeight: 600 }}>
            {value}
          </Typography>
          <Chip size="small" variant="outlined" color={chip.color} icon={chip.icon} label={`${trend > 0 ? '+' : ''}${trend}%`} />
        </Stack>
      )}
      {!failed && (
        <Box sx={{ mt: 1.5, mx: -1 }}>
          <Chart type="area" height={64} series={[{ name: title, data: data.series }]} options={options} />
        </Box>
      )}
    </Card>
  );
}
