import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { passwordStrength } from './password-strength';

const COLORS = ['', '#e03131', '#f08c00', '#2f9e44', '#1971c2'];

export function StrengthBar({ password }: { password: string }) {
  const { t } = useTranslation('auth');
  const s = passwordStrength(password);
  if (!s) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mt: -1 }}>
      <Box sx={{ width: 85, height: 8, borderRadius: 4, bgcolor: COLORS[s] }} />
      <Typography variant="caption" color="text.secondary">
        {t(`strength${s}`)}
      </Typography>
    </Box>
  );
}
