import { useMemo } from 'react';
import { Card, Skeleton, Typography } from '@mui/material';
import type { ApexOptions } from 'apexcharts';
import { useTranslation } from 'react-i18next';
import Chart from '../../../components/charts/Chart';
import { valueAxis } from '../../../lib/chart-scale';

const dollars = (v: number) => `$${v.toFixed(3)}`;
const whole = (v: number) => v.toFixed(0);

/** Redeemed dollars as columns and distinct redeemers as a line, each on its own axis. */
export default function RedemptionChart({ days, redeemed, redeemers, loading }: { days: string[]; redeemed: number[]; redeemers: number[]; loading: boolean }) {
  const { t } = useTranslation('analytics');
  const options = useMemo<ApexOptions>(() => {
    const money = valueAxis(Math.max(0, ...redeemed), dollars);
    const people = valueAxis(Math.max(0, ...redeemers), whole);
    return {
      chart: { stacked: false },
      stroke: { width: [0, 3], curve: 'smooth' },
      // no label on days without redeemers: a row of zeros sat on the axis over the day labels
      dataLabels: { enabled: true, enabledOnSeries: [1], offsetY: -6, formatter: (v: number | string | number[]) => (Number(v) ? whole(Number(v)) : '') },
      grid: { padding: { top: 18 } },
      xaxis: { categories: days, labels: { hideOverlappingLabels: true } },
      yaxis: [
        { min: 0, ...money, title: { text: t('redeemedAmount') }, labels: { formatter: dollars } },
        { min: 0, ...people, opposite: true, title: { text: t('redeemers') }, labels: { formatter: whole } },
      ],
      legend: { position: 'bottom' },
    };
  }, [days, t, redeemed, redeemers]);
  const series = [
    { name: t('redeemedAmount'), type: 'column', data: redeemed },
    { name: t('redeemers'), type: 'line', data: redeemers },
  ];
  return (
    <Card sx={{ p: 2.5, height: '100%' }}>
      <Typography variant="h6">{t('redemptionStats')}</Typography>
      {loading ? (
        <Skeleton width={120} />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('total', { value: dollars(redeemed.reduce((a, b) => a + b, 0)) })}
        </Typography>
      )}
      <Chart type="line" height={320} series={series} options={options} empty={!loading && redeemed.every((v) => v === 0)} emptyText={t('noData')} />
    </Card>
  );
}
