import { Typography, type TypographyProps } from '@mui/material';
import { formatQuota } from '@one-hub/contract';
import { useAppSelector } from '../../store';

/** Quota as the site displays it: currency (`display_in_currency`) or the abbreviated count. */
export function useFormatQuota(): (quota: number, digits?: number) => string {
  const quotaPerUnit = useAppSelector((s) => s.siteInfo.quota_per_unit);
  const displayInCurrency = useAppSelector((s) => s.siteInfo.display_in_currency);
  return (quota, digits) => formatQuota(quota, { quotaPerUnit, displayInCurrency }, digits);
}

export function QuotaText({ quota, digits, ...rest }: { quota: number; digits?: number } & Omit<TypographyProps, 'children'>) {
  const format = useFormatQuota();
  return (
    <Typography component="span" variant="body2" {...rest}>
      {format(quota, digits)}
    </Typography>
  );
}
