import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Box, Chip, Collapse, List, ListItemButton, ListItemText, ListSubheader, Typography } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useTranslation } from 'react-i18next';
import { isAdmin, useSession } from '../lib/session';
import { visibleMenu, type MenuItem } from './menu';

function Entry({ item, depth = 0, onNavigate }: { item: MenuItem; depth?: number; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const childActive = item.children?.some((c) => pathname.startsWith(c.path)) ?? false;
  const [open, setOpen] = useState(childActive);
  if (item.children) {
    return (
      <>
        <ListItemButton component={Link} to={item.children[0]?.path ?? item.path} onClick={() => setOpen(!open)} sx={{ borderRadius: 2, mb: 0.5 }}>
          <ListItemText primary={t(`menu.${item.id}`)} />
          {open ? <ExpandLess /> : <ExpandMore />}
        </ListItemButton>
        <Collapse in={open} unmountOnExit>
          <List disablePadding>
            {item.children.map((c) => (
              <Entry key={c.id} item={c} depth={depth + 1} onNavigate={onNavigate} />
            ))}
          </List>
        </Collapse>
      </>
    );
  }
  return (
    <ListItemButton
      component={Link}
      to={item.path}
      selected={pathname.startsWith(item.path)}
      onClick={onNavigate}
      sx={{ borderRadius: 2, mb: 0.5, pl: 2 + depth * 2 }}
    >
      <ListItemText primary={t(`menu.${item.id}`)} />
    </ListItemButton>
  );
}

/** Drawer content: welcome line, role-filtered menu groups, version chip. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { user, status } = useSession();
  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box component={Link} to="/panel/profile" sx={{ textDecoration: 'none', color: 'inherit', mb: 1, px: 1 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 700 }} noWrap>
          {user?.display_name || user?.username}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('sidebar.welcome')}
        </Typography>
      </Box>
      <nav aria-label="main">
        {visibleMenu(isAdmin(user)).map((group) => (
          <List key={group.id} dense subheader={<ListSubheader disableSticky sx={{ bgcolor: 'transparent', lineHeight: '32px' }}>{t(`menu.group.${group.id}`)}</ListSubheader>}>
            {group.items.map((i) => (
              <Entry key={i.id} item={i} onNavigate={onNavigate} />
            ))}
          </List>
        ))}
      </nav>
      <Box sx={{ mt: 'auto', pt: 2, px: 1 }}>
        <Chip size="small" label={status?.version || t('sidebar.unknownVersion')} />
      </Box>
    </Box>
  );
}
