import { Box, Stack, Tooltip, Typography } from '@mui/material';
import GitHub from '@mui/icons-material/GitHub';
import Email from '@mui/icons-material/Email';
import QrCode2 from '@mui/icons-material/QrCode2';
import { useTranslation } from 'react-i18next';
import { ROLE, type User } from '@one-hub/contract';
import { StatusChip, useFormatQuota, type ChipColor } from '../../components/data';

const ROLES: Record<number, { key: string; color: ChipColor }> = {
  [ROLE.common]: { key: 'common', color: 'default' },
  [ROLE.reliable]: { key: 'reliable', color: 'primary' },
  [ROLE.admin]: { key: 'admin', color: 'orange' },
  [ROLE.root]: { key: 'root', color: 'success' },
};

/** Role chip (console-screens §0): grey common, blue staff, orange admin, green super admin, red otherwise. */
export function RoleChip({ role }: { role: number }) {
  const { t } = useTranslation('user');
  const r = ROLES[role] ?? { key: 'unknown', color: 'error' as ChipColor };
  return <StatusChip label={t(`role.${r.key}`)} color={r.color} />;
}

/** Remaining quota, used quota and request count as outlined chips with tooltips. */
export function UserStats({ user }: { user: User }) {
  const { t } = useTranslation('user');
  const format = useFormatQuota();
  const chip = (title: string, label: string, color: ChipColor) => (
    <Tooltip title={title}>
      <span>
        <StatusChip label={label} color={color} variant="outlined" />
      </span>
    </Tooltip>
  );
  // Large balances wrap onto a second line rather than widen the table past the screen.
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', maxWidth: 240 }}>
      {chip(t('remaining'), format(user.quota), 'primary')}
      {chip(t('usedQuota'), format(user.used_quota), 'default')}
      {chip(t('requests'), String(user.request_count), 'default')}
    </Stack>
  );
}

/** WeChat, GitHub and e-mail bindings: coloured when bound, grey otherwise, the bound id in the tooltip. */
export function Bindings({ user }: { user: User }) {
  const { t } = useTranslation('user');
  const items = [
    { key: 'wechat', value: user.wechat_id, icon: QrCode2, color: '#07c160' },
    { key: 'github', value: user.github_id, icon: GitHub, color: 'text.primary' },
    { key: 'email', value: user.email, icon: Email, color: 'primary.main' },
  ];
  return (
    <Stack direction="row" spacing={0.5}>
      {items.map(({ key, value, icon: Icon, color }) => (
        <Tooltip key={key} title={`${t(`binding.${key}`)}: ${value || t('notBound')}`}>
          <Box component="span" data-testid={`binding-${key}`} data-bound={value ? 'yes' : 'no'} sx={{ display: 'inline-flex', color: value ? color : 'action.disabled' }}>
            <Icon fontSize="small" />
          </Box>
        </Tooltip>
      ))}
    </Stack>
  );
}

/** A last-login value, or "unknown" when 0 or empty. */
export function Unknown({ children }: { children: string }) {
  const { t } = useTranslation('user');
  return (
    <Typography variant="body2" color={children ? 'text.primary' : 'text.secondary'} sx={{ whiteSpace: 'nowrap' }}>
      {children || t('unknown')}
    </Typography>
  );
}
