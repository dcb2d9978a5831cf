import { Box, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The five request limits as the user types them (empty or 0 = no limit). */
export interface LimitTexts {
  rpm: string;
  tpm: string;
  max_inflight: string;
  daily_quota: string;
  monthly_quota: string;
}

export const LIMIT_FIELDS = ['rpm', 'tpm', 'max_inflight', 'daily_quota', 'monthly_quota'] as const;

export const limitsToTexts = (l?: Partial<Record<keyof LimitTexts, number>>): LimitTexts =>
  Object.fromEntries(LIMIT_FIELDS.map((k) => [k, l?.[k] ? String(l[k]) : ''])) as unknown as LimitTexts;

/** The fields that are not whole numbers ≥ 0. */
export const badLimits = (t: LimitTexts) => LIMIT_FIELDS.filter((k) => t[k].trim() !== '' && !/^\d+$/.test(t[k].trim()));

export const textsToLimits = (t: LimitTexts) =>
  Object.fromEntries(LIMIT_FIELDS.map((k) => [k, Number(t[k].trim() || 0)])) as Record<keyof LimitTexts, number>;

interface Props {
  value: LimitTexts;
  onChange: (v: LimitTexts) => void;
  /** Shown under the title: whose limits these are. */
  help?: string;
}

/** RPM, TPM, in-flight and spending caps (token dialog, user and group limits). */
export default function RequestLimitFields({ value, onChange, help }: Props) {
  const { t } = useTranslation();
  const bad = new Set(badLimits(value));
  return (
    <Box data-testid="request-limits">
      <Typography variant="subtitle2">{t('common:limits.title')}</Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1.5 }}>
        {help ?? t('common:limits.help')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {LIMIT_FIELDS.map((k) => (
          <TextField
            key={k}
            name={`limit_${k}`}
            label={t(`common:limits.${k}`)}
            value={value[k]}
            onChange={(e) => onChange({ ...value, [k]: e.target.value })}
            error={bad.has(k)}
            helperText={bad.has(k) ? t('common:limits.bad') : undefined}
            placeholder={t('common:limits.none')}
            slotProps={{ htmlInput: { inputMode: 'numeric' }, inputLabel: { shrink: true } }}
            size="small"
          />
        ))}
      </Box>
    </Box>
  );
}
