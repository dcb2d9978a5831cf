import { Box, Typography } from '@mui/material';
import HubRounded from '@mui/icons-material/HubRounded';
import { useAppSelector } from '../store';

/** The site logo (site info `logo`) or the built-in mark with the system name; hidden while site info loads. */
export default function Logo({ compact = false }: { compact?: boolean }) {
  const { logo, system_name, isLoading } = useAppSelector((s) => s.siteInfo);
  if (isLoading) return <Box sx={{ width: 120, height: 36 }} />;
  if (logo) return <Box component="img" src={logo} alt={system_name} sx={{ height: 36, maxWidth: 180, objectFit: 'contain' }} />;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
      <Box
        sx={{
          width: 34,
          height: 34,
          borderRadius: '10px',
          display: 'grid',
          placeItems: 'center',
          color: '#fff',
          background: 'linear-gradient(135deg, #3b5bdb 0%, #7048e8 100%)',
          flexShrink: 0,
        }}
      >
        <HubRounded fontSize="small" />
      </Box>
      {!compact && (
        <Typography variant="h6" noWrap sx={{ fontWeight: 800, letterSpacing: -0.3, color: 'text.primary' }}>
          {system_name}
        </Typography>
      )}
    </Box>
  );
}
