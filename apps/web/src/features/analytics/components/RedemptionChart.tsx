import { useMemo } from 'react';
import { Card, Typography } from '@mui/material';
import type { ApexOptions } from 'apexcharts';
import { useTranslation } from 'react-i18next';
import Chart from '../../../components/charts/Chart';

/** Redeemed dollars as columns and distinct redeemers as a line, each on its own axis. */
export default function RedemptionChart({ days, redeemed, redeemers, loading }: { days: string[]; redeemed: number[]; redeemers: number[]; loading: boolean }) {
  const { t } = useTranslation('analytics');
  const options = useMemo<ApexOptions>(
    () => ({
      chart: { stacked: false },
      stroke: { width: [0, 3], curve: 'smooth' },
      dataLabels: { enabled: true, enabledOnSeries: [1] },
      xaxis: { categories: days },
      yaxis: [
        { title: { text: t('redeemedAmount') }, labels: { formatter: (v: number) => `$${v.toFixed(3)}` } },
        { opposite: true, title: { text: t('redeemers') }, labels: { formatter: (v: number) => v.toFixed(0) } },
      ],
      legend: { position: 'bottom' },
    }),
    [days, t],
  );
  const series = [
    { name: t('redeemedAmount'), type: 'column', data: redeemed },
    { name: t('redeemers'), type: 'line', data: redeemers },
  ];
  return (
    <Card sx={{ p: 2.5, height: '100%' }}>
      <Typography variant="h6">{t('redemptionStats')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('total', { value: `$${redeemed.reduce((a, b) => a + b, 0).toFixed(3)}` })}
      </Typography>
      <Chart type="line" height={320} series={series} options={options} empty={!loading && redeemed.every((v) => v === 0)} emptyText={t('noData')} />
    </Card>
  );
}
