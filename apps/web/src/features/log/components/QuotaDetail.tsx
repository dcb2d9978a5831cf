import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { LogEntry } from '@one-hub/contract';
import { StatusChip } from '../../../components/data';
import { useAppSelector } from '../../../store';
import { discount, extraTokens, logPricing, requestRoute } from '../log-data';
import { useServerText } from '../../../lib/server-text';
import { formatNumber } from '../../../lib/format-number';

const money = (v: number, d = 6) => `$${v.toFixed(d)}`;

/** The door the request came in by, the family it was converted for (admins) and whether usage was estimated. */
function RouteLine({ log }: { log: LogEntry }) {
  const { t } = useTranslation('log');
  const route = requestRoute(log);
  if (!route) return null;
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap' }} data-testid="request-route">
      <Typography variant="body2">
        {t('route.door')}: <code>{route.door}</code>
      </Typography>
      {route.convertedTo && <StatusChip label={t('route.convertedTo', { dialect: route.convertedTo })} color="info" variant="outlined" />}
      <StatusChip label={t(route.estimated ? 'route.estimated' : 'route.reported')} color={route.estimated ? 'warning' : 'default'} variant="outlined" />
    </Stack>
  );
}

/** A request a subscription plan paid for: which plan, and what it took from the plan's window (the balance paid nothing). */
function PlanLine({ log }: { log: LogEntry }) {
  const { t } = useTranslation('log');
  const quotaPerUnit = useAppSelector((s) => s.siteInfo.quota_per_unit);
  const meta = (log.metadata ?? {}) as Record<string, unknown>;
  if (meta.plan_id === undefined) return null;
  const paid = Number(meta.plan_quota ?? 0);
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap' }} data-testid="plan-paid">
      <StatusChip label={t('planPaid', { plan: String(meta.plan_id), subscription: String(meta.subscription_id) })} color="success" />
      <Typography variant="body2">{t('planQuota', { value: money(paid / quotaPerUnit) })}</Typography>
    </Stack>
  );
}

/** The expanded cost breakdown: list price, group ratio, actual price, the formula and the saving. */
export default function QuotaDetail({ log }: { log: LogEntry }) {
  const { t, i18n } = useTranslation('log');
  const quotaPerUnit = useAppSelector((s) => s.siteInfo.quota_per_unit);
  const groups = useAppSelector((s) => s.account.userGroupMap);
  const { groupName: groupLabel } = useServerText();
  const p = logPricing(log);
  if (!p) {
    return (
      <Box sx={{ textAlign: 'left' }}>
        <RouteLine log={log} />
        <PlanLine log={log} />
        <Typography variant="body2">{t('noBreakdown')}</Typography>
      </Box>
    );
  }
  // The usage-class ratios the row was billed at (the chosen tier's own, or the base price's).
  const ratios = extraTokens(log.metadata).filter((e) => e.ratio !== undefined);
  const groupName = (g: string) => (g ? groupLabel(g, groups[g]?.name ?? g) : t('followUser'));
  const unit = p.type === 'tokens' ? ' /M' : ` / ${t('perCall')}`;
  const off = discount(log.quota, p.groupRatio, quotaPerUnit);
  const formula =
    p.type === 'tokens'
      ? `(${log.prompt_tokens} / 1M × ${money(p.actualInput, 4)}) + (${log.completion_tokens} / 1M × ${money(p.actualOutput, 4)})`
      : `1 × ${money(p.actualInput, 4)}`;
  const column = (title: string, lines: string[]) => (
    <Box sx={{ flex: 1, minWidth: 160 }}>
      <Typography variant="caption" color="text.secondary">
        {title}
      </Typography>
      {lines.map((l) => (
        <Typography key={l} variant="body2">
          {l}
        </Typography>
      ))}
    </Box>
  );
  return (
    <Box data-testid="quota-detail" sx={{ textAlign: 'left' }}>
      <RouteLine log={log} />
      <PlanLine log={log} />
      {p.tier && (
        <Typography variant="body2" sx={{ mb: 1 }} data-testid="price-tier">
          {t('priceTier', { tier: p.tier.replace(/\d+/, (n) => formatNumber(Number(n), i18n.language)) })}
        </Typography>
      )}
      {(p.serviceTier || p.fast || p.serviceRatio !== 1) && (
        <Typography variant="body2" sx={{ mb: 1 }} data-testid="service-class">
          {[p.serviceTier && t('serviceTier', { tier: p.serviceTier }), p.fast && t('fastMode'), p.serviceRatio !== 1 && t('serviceRatio', { ratio: p.serviceRatio })].filter(Boolean).join(' · ')}
        </Typography>
      )}
      {ratios.length > 0 && (
        <Typography variant="body2" sx={{ mb: 1 }} data-testid="class-ratios">
          {t('classRatios')}: {ratios.map((e) => `${t(`extra.${e.key}`)} ${e.value} × ${e.ratio}`).join(' · ')}
        </Typography>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {column(t('originalPrice'), [`${t('input')}: ${money(p.input, 4)}${unit}`, ...(p.type === 'tokens' ? [`${t('output')}: ${money(p.output, 4)}${unit}`] : [])])}
        {column(t('groupRatio'), [p.backupGroup !== undefined ? `${groupName(p.groupName)} → ${groupName(p.backupGroup)}` : groupName(p.groupName), `× ${p.groupRatio}`])}
        {column(t('actualPrice'), [`${t('input')}: ${money(p.actualInput, 4)}${unit}`, ...(p.type === 'tokens' ? [`${t('output')}: ${money(p.actualOutput, 4)}${unit}`] : [])])}
      </Stack>
      <Typography variant="body2" sx={{ mt: 1.5, fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {t('finalCalc')}: {formula} = {money(log.quota / quotaPerUnit)}
      </Typography>
      {off && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2">
            {t('originalBilling')}: {money(off.original)} · {t('actualBilling')}: {money(off.actual)}
          </Typography>
          <StatusChip color="success" label={t('saved', { percent: off.savedPercent })} />
        </Stack>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        {t('pointNote', { value: money(1 / quotaPerUnit) })}
      </Typography>
    </Box>
  );
}
