import { useState } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { AppBar, Box, Button, IconButton, Menu, MenuItem, Toolbar, Typography, useMediaQuery, useTheme } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import { useTranslation } from 'react-i18next';
import DOMPurify from 'dompurify';
import { useSession } from '../lib/session';
import { ChromeControls } from './ChromeControls';
import type { Mode } from './theme';

/** Public pages: top bar that folds into a menu below md, and the footer (custom HTML, sanitised). */
export function PublicLayout({ mode, onToggleMode }: { mode: Mode; onToggleMode: () => void }) {
  const { t } = useTranslation();
  const { user, status } = useSession();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const links = [
    { to: '/', label: t('nav.home') },
    ...(user ? [{ to: '/playground', label: t('nav.playground') }] : []),
    { to: '/about', label: t('nav.about') },
    user ? { to: '/panel', label: t('nav.console') } : { to: '/login', label: t('nav.login') },
  ];
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Toolbar>
          <Typography component={Link} to="/" variant="h6" sx={{ flexGrow: 1, fontWeight: 800, color: 'primary.main', textDecoration: 'none' }}>
            {status?.system_name ?? 'One Hub'}
          </Typography>
          {desktop ? (
            links.map((l) => (
              <Button key={l.to} component={Link} to={l.to} color="inherit">
                {l.label}
              </Button>
            ))
          ) : (
            <>
              <IconButton aria-label="menu" onClick={(e) => setAnchor(e.currentTarget)}>
                <MenuIcon />
              </IconButton>
              <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
                {links.map((l) => (
                  <MenuItem key={l.to} component={Link} to={l.to} onClick={() => setAnchor(null)}>
                    {l.label}
                  </MenuItem>
                ))}
              </Menu>
            </>
          )}
          <ChromeControls mode={mode} onToggleMode={onToggleMode} />
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ flexGrow: 1 }}>
        <Outlet />
      </Box>
      <Box component="footer" sx={{ py: 3, textAlign: 'center', color: 'text.secondary', fontSize: 14 }}>
        {status?.footer_html ? (
          <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(status.footer_html) }} />
        ) : (
          <span>
            {status?.system_name ?? 'One Hub'} {status?.version} · MIT License
          </span>
        )}
      </Box>
    </Box>
  );
}
