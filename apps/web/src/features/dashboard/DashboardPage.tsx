import { useEffect, useState } from 'react';
import { Card, CardContent, Grid, LinearProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatQuota, type DashboardRow, type User } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useSession } from '../../lib/session';

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <CardContent>
        <Typography color="text.secondary" variant="body2">
          {label}
        </Typography>
        <Typography variant="h5" sx={{ fontWeight: 800 }} data-testid={`stat-${label}`}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const { status } = useSession();
  const [self, setSelf] = useState<User | null>(null);
  const [rows, setRows] = useState<DashboardRow[] | null>(null);
  useEffect(() => {
    void api<User>('/api/user/self').then(setSelf).catch(() => undefined);
    void api<DashboardRow[]>('/api/user/dashboard').then(setRows).catch(() => setRows([]));
  }, []);
  const display = { quotaPerUnit: status?.quota_per_unit ?? 500000, displayInCurrency: status?.display_in_currency ?? true };
  if (!self) return <LinearProgress />;
  const byDay = new Map<string, number>();
  for (const r of rows ?? []) byDay.set(r.Date, (byDay.get(r.Date) ?? 0) + r.Quota);
  const days = Array.from({ length: 7 }, (_, i) => new Date(Date.now() - (6 - i) * 86_400_000).toISOString().slice(0, 10));
  const max = Math.max(1, ...days.map((d) => byDay.get(d) ?? 0));
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 4 }}>
        <Stat label={t('dashboard.balance')} value={formatQuota(self.quota, display)} />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <Stat label={t('dashboard.used')} value={formatQuota(self.used_quota, display)} />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <Stat label={t('dashboard.requests')} value={String(self.request_count)} />
      </Grid>
      <Grid size={12}>
        <Card>
          <CardContent>
            <Typography sx={{ fontWeight: 700 }} gutterBottom>
              {t('dashboard.usage7d')}
            </Typography>
            {rows === null ? (
              <LinearProgress />
            ) : (
              <svg viewBox="0 0 700 180" width="100%" role="img" aria-label={t('dashboard.usage7d')}>
                {days.map((d, i) => {
                  const v = byDay.get(d) ?? 0;
                  const h = Math.round((v / max) * 130);
                  return (
                    <g key={d}>
                      <rect x={i * 100 + 25} y={150 - h} width={50} height={Math.max(h, 2)} rx={6} fill="currentColor" opacity={v ? 0.8 : 0.15} />
                      <text x={i * 100 + 50} y={172} textAnchor="middle" fontSize={12} fill="currentColor">
                        {d.slice(5)}
                      </text>
                    </g>
                  );
                })}
              </svg>
            )}
            {rows !== null && rows.length === 0 && <Typography color="text.secondary">{t('dashboard.noUsage')}</Typography>}
          </CardContent>
        </Card>
      </Grid>
    </Grid>
  );
}
