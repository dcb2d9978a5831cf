import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Box, Drawer, useMediaQuery, useTheme } from '@mui/material';
import PageLoader from '../../../components/PageLoader';
import { useAppSelector } from '../../../store';
import { Guard } from '../../guards';
import { PanelTopBar } from './PanelTopBar';
import { Sidebar } from './Sidebar';
import { PanelBreadcrumbs } from './PanelBreadcrumbs';

export const DRAWER_WIDTH = 260;

/** The signed-in frame: top bar, sidebar (a temporary drawer below md), breadcrumbs, content ≤ 1400 px. */
export function PanelLayout() {
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'));
  const opened = useAppSelector((s) => s.customization.opened);
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setMobileOpen(false), [pathname]);
  const drawerOpen = desktop ? opened : mobileOpen;

  return (
    <Guard access="user">
      <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
        <PanelTopBar desktop={desktop} onToggleDrawer={() => setMobileOpen(!mobileOpen)} />
        <Drawer
          variant={desktop ? 'persistent' : 'temporary'}
          open={drawerOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{
            width: desktop && opened ? DRAWER_WIDTH : 0,
            flexShrink: 0,
            transition: theme.transitions.create('width'),
            '& .MuiDrawer-paper': {
              width: DRAWER_WIDTH,
              boxSizing: 'border-box',
              borderRight: desktop ? 0 : undefined,
              bgcolor: 'background.default',
              // the top bar stays above the drawer on every width, so the drawer starts below it
              top: desktop ? 72 : 64,
              height: desktop ? 'calc(100% - 72px)' : 'calc(100% - 64px)',
            },
          }}
        >
          <Sidebar />
        </Drawer>
        <Box
          component="main"
          sx={{
            flexGrow: 1,
            minWidth: 0,
            mt: { xs: '72px', md: '88px' },
            px: { xs: 2, md: 3 },
            pb: 4,
          }}
        >
          <Box sx={{ maxWidth: { md: 1400 }, mx: 'auto' }}>
            <PanelBreadcrumbs />
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </Box>
        </Box>
      </Box>
    </Guard>
  );
}
