import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import { Avatar, Box, Chip, List, ListSubheader, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../store';
import type { MenuGroup } from '../../menu';
import { useMenu } from '../../use-menu';
import { MenuEntry } from './MenuEntry';

function Group({ group }: { group: MenuGroup }) {
  const { t } = useTranslation();
  if ((group.type as string) !== 'group') {
    return (
      <Typography color="error" variant="body2" sx={{ px: 2 }}>
        {t('menu.error')}
      </Typography>
    );
  }
  return (
    <List
      dense
      disablePadding
      sx={{ mb: 1.5 }}
      subheader={
        <ListSubheader disableSticky sx={{ bgcolor: 'transparent', lineHeight: '30px', fontWeight: 700, fontSize: 12, letterSpacing: 0.4, textTransform: 'uppercase' }}>
          {t(`menuGroup.${group.id}`)}
        </ListSubheader>
      }
    >
      {group.children.map((entry) => (
        <MenuEntry key={entry.id} entry={entry} />
      ))}
    </List>
  );
}

/** The menu's scroll area: when items are hidden below, a fading cue at the bottom says so and scrolls on click. */
function ScrollableNav({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  const [more, setMore] = useState(false);
  const measure = useCallback(() => {
    const el = ref.current;
    if (el) setMore(el.scrollTop + el.clientHeight < el.scrollHeight - 4);
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [measure, children]);
  return (
    <Box component="nav" aria-label="main" ref={ref} onScroll={measure} sx={{ flexGrow: 1, overflowY: 'auto', position: 'relative' }}>
      {children}
      {more && (
        <Box
          role="button"
          aria-label={t('chrome.moreBelow')}
          data-testid="menu-more"
          onClick={() => ref.current?.scrollBy({ top: ref.current.clientHeight / 2, behavior: 'smooth' })}
          sx={{
            position: 'sticky',
            bottom: 0,
            height: 36,
            mt: -4.5,
            display: 'grid',
            placeItems: 'end center',
            cursor: 'pointer',
            background: (th) => `linear-gradient(to bottom, transparent, ${th.palette.background.default})`,
          }}
        >
          <KeyboardArrowDown color="action" />
        </Box>
      )}
    </Box>
  );
}

/** Drawer content: welcome line, the role-filtered menu of spec §2, version chip. */
export function Sidebar() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.account.user);
  const version = useAppSelector((s) => s.siteInfo.version);
  const menu = useMenu();
  const name = user?.display_name || user?.username || '';
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', px: 2, pt: { xs: 2, md: 0 } }}>
      <Box
        component={Link}
        to="/panel/profile"
        data-testid="welcome"
        sx={{ display: 'flex', alignItems: 'center', gap: 1.5, p: 1.5, mb: 2, borderRadius: 3, textDecoration: 'none', color: 'inherit', bgcolor: 'action.hover' }}
      >
        <Avatar src={user?.avatar_url || undefined} sx={{ bgcolor: 'primary.main', width: 40, height: 40 }}>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap sx={{ fontWeight: 700 }}>
            {user?.username}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {t('menu.welcomeBack')}
          </Typography>
        </Box>
      </Box>
      <ScrollableNav>
        {menu.map((g) => (
          <Group key={g.id} group={g} />
        ))}
      </ScrollableNav>
      <Box sx={{ py: 2, display: 'flex', justifyContent: 'center' }}>
        <Chip size="small" variant="outlined" disabled label={version || t('menu.unknownVersion')} data-testid="version-chip" />
      </Box>
    </Box>
  );
}
