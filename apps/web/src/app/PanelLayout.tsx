import { useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { AppBar, Box, Button, Drawer, IconButton, Toolbar, Typography, useMediaQuery, useTheme } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/session';
import { ChromeControls } from './ChromeControls';
import { Sidebar } from './Sidebar';
import type { Mode } from './theme';

export const DRAWER_WIDTH = 260;

/** The signed-in console frame: top bar, sidebar (a drawer on phones), content up to 1400 px wide. */
export function PanelLayout({ mode, onToggleMode }: { mode: Mode; onToggleMode: () => void }) {
  const { t } = useTranslation();
  const { user, status, logout } = useSession();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'));
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, behavior: 'smooth' }); // newer browsers return a promise: not a cleanup
  }, [pathname]);
  if (!user) return <Navigate to="/login" replace />;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', zIndex: (th) => th.zIndex.drawer + 1 }}>
        <Toolbar>
          {!desktop && (
            <IconButton edge="start" aria-label="menu" onClick={() => setOpen(true)} sx={{ mr: 1 }}>
              <MenuIcon />
            </IconButton>
          )}
          <Typography component={Link} to="/" variant="h6" sx={{ flexGrow: 1, fontWeight: 800, color: 'primary.main', textDecoration: 'none' }} noWrap>
            {status?.system_name ?? 'One Hub'}
          </Typography>
          <ChromeControls mode={mode} onToggleMode={onToggleMode} />
          <Button color="inherit" onClick={() => void logout().then(() => navigate('/'))} sx={{ ml: 1 }}>
            {t('nav.logout')}
          </Button>
        </Toolbar>
      </AppBar>
      <Drawer
        variant={desktop ? 'permanent' : 'temporary'}
        open={desktop || open}
        onClose={() => setOpen(false)}
        sx={{ width: DRAWER_WIDTH, flexShrink: 0, '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box', borderRight: 1, borderColor: 'divider' } }}
      >
        <Toolbar />
        <Sidebar onNavigate={() => setOpen(false)} />
      </Drawer>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, md: 3 }, mt: { xs: 7, md: 8 } }}>
        <Box sx={{ maxWidth: 1400, mx: 'auto' }}>
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}
