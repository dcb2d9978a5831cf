import { Link } from 'react-router-dom';
import { AppBar, Box, IconButton, Toolbar, Tooltip } from '@mui/material';
import MenuRounded from '@mui/icons-material/MenuRounded';
import { useTranslation } from 'react-i18next';
import Logo from '../../../components/Logo';
import NoticeButton from '../../../components/NoticeButton';
import ThemeToggle from '../../../components/ThemeToggle';
import LanguageMenu from '../../../components/LanguageMenu';
import { useAppDispatch, useAppSelector } from '../../../store';
import { setMenu } from '../../../store/customization';
import { UserMenu } from './UserMenu';
import { QuickSearch } from './QuickSearch';

const LOGO_WIDTH = 260;

/** Console top bar: logo, drawer toggle, notice, theme, language, user menu. */
export function PanelTopBar({ desktop, onToggleDrawer }: { desktop: boolean; onToggleDrawer: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const opened = useAppSelector((s) => s.customization.opened);
  return (
    <AppBar
      position="fixed"
      color="inherit"
      elevation={0}
      sx={(th) => ({ bgcolor: 'background.default', zIndex: th.zIndex.drawer + 1, borderBottom: `1px solid ${th.palette.divider}`, [th.breakpoints.up('md')]: { borderBottom: 'none' } })}
    >
      <Toolbar sx={{ minHeight: { xs: 64, md: 72 }, gap: { xs: 0.5, sm: 1 } }}>
        <Box component={Link} to="/" sx={{ width: { md: LOGO_WIDTH - 24 }, display: 'flex', textDecoration: 'none', minWidth: 0, flexShrink: 1 }} aria-label="home">
          <Logo compact={!desktop} />
        </Box>
        <Tooltip title={t('chrome.toggleMenu')}>
          <IconButton
            aria-label={t('chrome.toggleMenu')}
            data-testid="drawer-toggle"
            onClick={() => (desktop ? dispatch(setMenu(!opened)) : onToggleDrawer())}
            sx={{ bgcolor: 'action.hover', borderRadius: 2 }}
          >
            <MenuRounded />
          </IconButton>
        </Tooltip>
        <Box sx={{ flexGrow: 1 }} />
        <QuickSearch />
        <NoticeButton />
        <ThemeToggle />
        <LanguageMenu />
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
}
