import { useMemo } from 'react';
import { Card, Typography, alpha, useTheme } from '@mui/material';
import type { ApexOptions } from 'apexcharts';
import { useTranslation } from 'react-i18next';
import Chart from '../../../components/charts/Chart';

/** Ten theme colours at three strengths, so up to 30 models get distinct slices. */
function piePalette(base: string[]): string[] {
  return [1, 0.7, 0.45].flatMap((a) => base.map((c) => alpha(c, a)));
}

/** A donut of the week's requests per model with the total in the middle. */
export default function ModelPie({ shares, loading }: { shares: Array<{ name: string; value: number }>; loading: boolean }) {
  const { t } = useTranslation('dashboard');
  const theme = useTheme();
  const options = useMemo<ApexOptions>(() => {
    const p = theme.palette;
    const base = [p.primary.main, p.secondary.main, p.success.main, p.warning.main, p.error.main, p.info.main, '#7c3aed', '#0d9488', '#db2777', '#65a30d'];
    return {
      labels: shares.map((s) => s.name),
      colors: piePalette(base),
      legend: { position: 'bottom', formatter: (name: string, o?: { seriesIndex: number }) => `${name} – ${shares[o?.seriesIndex ?? 0]?.value ?? 0}` },
      dataLabels: { enabled: false },
      stroke: { colors: [p.background.paper] },
      plotOptions: { pie: { donut: { size: '60%', labels: { show: true, total: { show: true, showAlways: true, label: t('totalNumber') } } } } },
    };
  }, [shares, theme, t]);
  return (
    <Card sx={{ p: 2.5 }}>
      <Typography variant="h6">{t('modelPie')}</Typography>
      <Chart type="donut" height={380} series={shares.map((s) => s.value)} options={options} empty={!loading && shares.length === 0} emptyText={t('noData')} testId="model-pie" />
    </Card>
  );
}
