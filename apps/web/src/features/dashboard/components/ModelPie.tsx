import { useMemo } from 'react';
import { Box, Card, Typography, alpha, useTheme } from '@mui/material';
import type { ApexOptions } from 'apexcharts';
import { useTranslation } from 'react-i18next';
import Chart from '../../../components/charts/Chart';
import { escapeHtml } from '../../../lib/content';

/** Ten theme colours at three strengths, so up to 30 models get distinct slices. */
function piePalette(base: string[]): string[] {
  return [1, 0.7, 0.45].flatMap((a) => base.map((c) => alpha(c, a)));
}

/** A donut of the week's requests per model with the total in the middle. */
export default function ModelPie({ shares, loading, failed }: { shares: Array<{ name: string; value: number }>; loading: boolean; failed?: boolean }) {
  const { t } = useTranslation('dashboard');
  const theme = useTheme();
  const options = useMemo<ApexOptions>(() => {
    const p = theme.palette;
    const base = [p.primary.main, p.secondary.main, p.success.main, p.warning.main, p.error.main, p.info.main, '#7c3aed', '#0d9488', '#db2777', '#65a30d'];
    return {
      labels: shares.map((s) => s.name),
      colors: piePalette(base),
      // ApexCharts writes the label as HTML: escaped, with the whole line as its tooltip (it may be cut short)
      legend: {
        position: 'bottom',
        formatter: (name: string, o?: { seriesIndex: number }) => {
          const count = shares[o?.seriesIndex ?? 0]?.value ?? 0;
          return `<span class="pie-legend-item" title="${escapeHtml(`${name} – ${count}`)}" data-testid="pie-legend-item"><span class="pie-legend-name">${escapeHtml(name)}</span><span class="pie-legend-count"> – ${count}</span></span>`;
        },
      },
      dataLabels: { enabled: false },
      stroke: { colors: [p.background.paper] },
      plotOptions: { pie: { donut: { size: '60%', labels: { show: true, total: { show: true, showAlways: true, label: t('totalNumber') } } } } },
    };
  }, [shares, theme, t]);
  return (
    <Card sx={{ p: 2.5 }}>
      <Typography variant="h6">{t('modelPie')}</Typography>
      {/* one legend item never breaks: a long model name ends in an ellipsis, its count stays */}
      <Box
        sx={{
          '& .apexcharts-legend-series': { display: 'flex', alignItems: 'center', maxWidth: '100%', minWidth: 0 },
          '& .apexcharts-legend-marker': { flexShrink: 0 },
          '& .apexcharts-legend-text': { minWidth: 0, overflow: 'hidden' },
          '& .pie-legend-item': { display: 'flex', minWidth: 0, whiteSpace: 'nowrap' },
          '& .pie-legend-name': { overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 },
          '& .pie-legend-count': { flexShrink: 0, whiteSpace: 'pre' },
        }}
      >
        <Chart type="donut" height={380} series={shares.map((s) => s.value)} options={options} empty={!loading && shares.length === 0} emptyText={failed ? t('loadFailed') : t('noData')} testId="model-pie" />
      </Box>
    </Card>
  );
}
