import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { AppBar, Box, Button, Container, Divider, IconButton, ListItemIcon, Menu, MenuItem, Toolbar, useMediaQuery, useTheme } from '@mui/material';
import MenuRounded from '@mui/icons-material/MenuRounded';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import { useTranslation } from 'react-i18next';
import Logo from '../../../components/Logo';
import NoticeButton from '../../../components/NoticeButton';
import ThemeToggle from '../../../components/ThemeToggle';
import LanguageMenu from '../../../components/LanguageMenu';
import { useAppDispatch, useAppSelector } from '../../../store';
import { signOut } from '../../../store/session';

/** The Uptime Kuma status page when the site reports one (console-screens §1.2), else null. */
export function statusPageUrl(site: { UptimeEnabled?: boolean; UptimeDomain?: string; UptimePageName?: string }): string | null {
  if (!site.UptimeEnabled || !site.UptimeDomain) return null;
  const domain = site.UptimeDomain.replace(/\/+$/, '');
  return site.UptimePageName ? `${domain}/status/${encodeURIComponent(site.UptimePageName)}` : domain;
}

/** Public top bar: logo, Home, Playground (signed in), Price, About, Status (Uptime Kuma), notice, theme, language, Console + sign-out or Login. */
export function PublicTopBar() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.account.user);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const desktop = useMediaQuery(useTheme().breakpoints.up('md'));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const status = statusPageUrl(useAppSelector((s) => s.siteInfo));
  const external = status ? { component: 'a' as const, href: status, target: '_blank', rel: 'noopener noreferrer', 'data-testid': 'status-link' } : null;
  const links = [
    { to: '/', label: t('chrome.home') },
    ...(user ? [{ to: '/playground', label: t('chrome.playground') }] : []),
    { to: '/price', label: t('chrome.price') },
    { to: '/about', label: t('chrome.about') },
  ];
  const main = user ? { to: '/panel', label: t('chrome.console') } : { to: '/login', label: t('chrome.login') };
  const out = () => void dispatch(signOut()).then(() => navigate('/'));

  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Container maxWidth="xl" disableGutters>
        <Toolbar sx={{ minHeight: 64, gap: 0.5 }}>
          <Box component={Link} to="/" aria-label="home" sx={{ display: 'flex', textDecoration: 'none', minWidth: 0, mr: 2 }}>
            <Logo compact={!desktop} />
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          {desktop &&
            links.map((l) => (
              <Button key={l.to} component={Link} to={l.to} color={pathname === l.to ? 'primary' : 'inherit'}>
                {l.label}
              </Button>
            ))}
          {desktop && external && (
            <Button {...external} color="inherit">
              {t('chrome.status')}
            </Button>
          )}
          <NoticeButton />
          <ThemeToggle />
          <LanguageMenu />
          {desktop ? (
            <>
              <Button component={Link} to={main.to} variant="contained" sx={{ ml: 1, borderRadius: 5, px: 2.5 }}>
                {main.label}
              </Button>
              {user && (
                <IconButton aria-label={t('chrome.signOut')} title={t('chrome.signOut')} onClick={out}>
                  <LogoutOutlined />
                </IconButton>
              )}
            </>
          ) : (
            <>
              <IconButton aria-label={t('chrome.openMenu')} data-testid="public-menu" onClick={(e) => setAnchor(e.currentTarget)}>
                <MenuRounded />
              </IconButton>
              <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { minWidth: 200 } } }}>
                {links.map((l) => (
                  <MenuItem key={l.to} component={Link} to={l.to} selected={pathname === l.to} onClick={() => setAnchor(null)}>
                    {l.label}
                  </MenuItem>
                ))}
                {external && (
                  <MenuItem {...external} onClick={() => setAnchor(null)}>
                    {t('chrome.status')}
                  </MenuItem>
                )}
                <Divider />
                <MenuItem component={Link} to={main.to} onClick={() => setAnchor(null)} sx={{ color: 'primary.main', fontWeight: 700 }}>
                  {main.label}
                </MenuItem>
                {user && (
                  <MenuItem component={Link} to="/panel/profile" onClick={() => setAnchor(null)}>
                    <ListItemIcon>
                      <SettingsOutlined fontSize="small" />
                    </ListItemIcon>
                    {t('chrome.setting')}
                  </MenuItem>
                )}
                {user && (
                  <MenuItem
                    onClick={() => {
                      setAnchor(null);
                      out();
                    }}
                  >
                    <ListItemIcon>
                      <LogoutOutlined fontSize="small" />
                    </ListItemIcon>
                    {t('chrome.signOut')}
                  </MenuItem>
                )}
              </Menu>
            </>
          )}
        </Toolbar>
      </Container>
    </AppBar>
  );
}
