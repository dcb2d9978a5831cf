import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import ExpandLess from '@mui/icons-material/ExpandLessRounded';
import ExpandMore from '@mui/icons-material/ExpandMoreRounded';
import { Avatar, Box, Chip, Collapse, List, ListItemButton, ListItemText, Skeleton, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../store';
import { groupOf, type MenuGroup } from '../../menu';
import type { MenuGroupId } from '../../../lib/screen';
import { useMenu } from '../../use-menu';
import { MenuEntry, SHORT_SCREEN } from './MenuEntry';

/** A titled group that folds; its title is a button so the whole menu fits a 1366×768 screen. */
function Group({ group, open, onToggle }: { group: MenuGroup; open: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  if ((group.type as string) !== 'group') {
    return (
      <Typography color="error" variant="body2" sx={{ px: 2 }}>
        {t('menu.error')}
      </Typography>
    );
  }
  return (
    <List dense disablePadding sx={{ mb: 0.5 }}>
      <ListItemButton data-testid="menu-group" data-group={group.id} aria-expanded={open} onClick={onToggle} sx={{ py: 0.5, pl: 1.5, borderRadius: 2, [SHORT_SCREEN]: { py: 0.25 } }}>
        <ListItemText
          primary={t(`menuGroup.${group.id}`)}
          slotProps={{ primary: { sx: { fontWeight: 700, fontSize: 12, letterSpacing: 0.4, textTransform: 'uppercase', color: open ? 'text.primary' : 'text.secondary' } } }}
        />
        {open ? <ExpandLess fontSize="small" color="action" /> : <ExpandMore fontSize="small" color="action" />}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit>
        {group.children.map((entry) => (
          <MenuEntry key={entry.id} entry={entry} />
        ))}
      </Collapse>
    </List>
  );
}

/** Which groups are unfolded: the current route's group; moving to another group folds the rest. */
function useOpenGroups(menu: readonly MenuGroup[]) {
  const { pathname } = useLocation();
  const current = groupOf(menu, pathname);
  const [open, setOpen] = useState<Set<MenuGroupId>>(() => new Set(current ? [current] : []));
  useEffect(() => {
    if (current) setOpen(new Set([current]));
  }, [current]);
  const toggle = (id: MenuGroupId) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return { open, toggle };
}

/** Drawer content: welcome line, the role-filtered menu of spec §2, version chip. */
export function Sidebar() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.account.user);
  const version = useAppSelector((s) => s.siteInfo.version);
  const statusLoading = useAppSelector((s) => s.siteInfo.isLoading);
  const menu = useMenu();
  const groups = useOpenGroups(menu);
  const name = user?.display_name || user?.username || '';
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', px: 2, pt: { xs: 2, md: 0 } }}>
      <Box
        component={Link}
        to="/panel/profile"
        data-testid="welcome"
        sx={{ display: 'flex', alignItems: 'center', gap: 1.5, p: 1, mb: 1.5, [SHORT_SCREEN]: { mb: 0.75, p: 0.75 }, borderRadius: 3, textDecoration: 'none', color: 'inherit', bgcolor: 'action.hover' }}
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
      <Box component="nav" aria-label="main" sx={{ flexGrow: 1, overflowY: 'auto' }}>
        {menu.map((g) => (
          <Group key={g.id} group={g} open={groups.open.has(g.id)} onToggle={() => groups.toggle(g.id)} />
        ))}
      </Box>
      <Box sx={{ py: 1.5, [SHORT_SCREEN]: { py: 0.75 }, display: 'flex', justifyContent: 'center' }}>
        {/* "Unknown version" only once the status has answered without one. */}
        {statusLoading && !version ? (
          <Skeleton variant="rounded" width={80} height={24} data-testid="version-chip-loading" />
        ) : (
          <Chip size="small" variant="outlined" disabled label={version || t('menu.unknownVersion')} data-testid="version-chip" />
        )}
      </Box>
    </Box>
  );
}
