import { useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Box, Breadcrumbs, Link as MuiLink, Typography } from '@mui/material';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import { useTranslation } from 'react-i18next';
import { findTrail } from '../../menu';
import { useMenu } from '../../use-menu';

/** Title and trail: Dashboard › group › (collapse) › item, at most 8 crumbs. */
export function PanelBreadcrumbs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const menu = useMenu();
  const trail = useMemo(() => findTrail(menu, pathname), [menu, pathname]);
  if (!trail) return null;
  const title = t(`menu.${trail.item.id}`);
  const home = t('menu.dashboard');
  // Dashboard › group › collapse › item, without repeating a label (the dashboard item sits in the dashboard group)
  const crumbs = [t(`menuGroup.${trail.group.id}`), ...(trail.collapse ? [t(`menu.${trail.collapse.id}`)] : [])].filter((c) => c !== home && c !== title);
  return (
    <Box
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 2.5, px: 0.5 }}
      data-testid="breadcrumbs"
    >
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Breadcrumbs maxItems={8} aria-label="breadcrumb" sx={{ fontSize: 14, display: { xs: 'none', sm: 'block' } }}>
        <MuiLink component={Link} to="/panel/dashboard" underline="hover" color="inherit" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <HomeOutlined sx={{ fontSize: 18 }} />
          {home}
        </MuiLink>
        {crumbs.map((c) => (
          <Typography key={c} color="text.secondary" sx={{ fontSize: 14 }}>
            {c}
          </Typography>
        ))}
        {title !== home && (
          <Typography color="text.primary" sx={{ fontSize: 14, fontWeight: 600 }}>
            {title}
          </Typography>
        )}
      </Breadcrumbs>
    </Box>
  );
}
