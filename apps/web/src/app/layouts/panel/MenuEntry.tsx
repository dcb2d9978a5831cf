import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Collapse, List, ListItemButton, ListItemIcon, ListItemText, Typography } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLessRounded';
import ExpandMore from '@mui/icons-material/ExpandMoreRounded';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../../store';
import { menuOpen } from '../../../store/customization';
import { isCurrentUrl as isCurrent, type MenuCollapse, type MenuLeaf } from '../../menu';

/** A laptop screen such as 1366×768: menu rows get denser so the admin's menu fits without scrolling. */
export const SHORT_SCREEN = '@media (max-height: 800px)';

function Leaf({ item, nested = false }: { item: MenuLeaf; nested?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const dispatch = useAppDispatch();
  const selected = !item.external && isCurrent(pathname, item.url);
  const Icon = item.icon;
  const link = item.external
    ? ({ component: 'a', href: item.url, target: item.target, rel: item.target ? 'noopener noreferrer' : undefined } as const)
    : ({ component: Link, to: item.url, target: item.target } as const);
  return (
    <ListItemButton {...link} selected={selected} onClick={() => dispatch(menuOpen(item.id))} sx={{ mb: 0.25, py: 0.625, pl: nested ? 4 : 1.5, [SHORT_SCREEN]: { py: 0.25, mb: 0 } }}>
      <ListItemIcon sx={{ minWidth: 36, color: selected ? 'primary.main' : 'text.secondary' }}>
        {Icon && !nested ? <Icon /> : <FiberManualRecord sx={{ fontSize: selected ? 10 : 7, ml: 0.75 }} />}
      </ListItemIcon>
      <ListItemText primary={t(`menu.${item.id}`)} slotProps={{ primary: { sx: { fontWeight: selected ? 700 : 500, color: selected ? 'primary.main' : 'text.primary' } } }} />
    </ListItemButton>
  );
}

function Collapsible({ entry }: { entry: MenuCollapse }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const inside = entry.children.some((c) => isCurrent(pathname, c.url));
  const [open, setOpen] = useState(inside);
  useEffect(() => {
    if (inside) setOpen(true);
  }, [inside]);
  const first = entry.children[0];
  return (
    <>
      <ListItemButton
        component={Link}
        to={first.url}
        aria-expanded={open}
        onClick={(e: React.MouseEvent) => {
          e.preventDefault();
          if (open) return setOpen(false);
          setOpen(true);
          navigate(first.url);
        }}
        sx={{ mb: 0.25, py: 0.625, pl: 1.5, [SHORT_SCREEN]: { py: 0.25, mb: 0 } }}
      >
        <ListItemIcon sx={{ minWidth: 36, color: inside ? 'primary.main' : 'text.secondary' }}>{first.icon ? <first.icon /> : null}</ListItemIcon>
        <ListItemText primary={t(`menu.${entry.id}`)} slotProps={{ primary: { sx: { fontWeight: inside ? 700 : 500 } } }} />
        {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ListItemButton>
      <Collapse in={open} timeout="auto">
        <List dense disablePadding>
          {entry.children.map((c) =>
            (c.type as string) === 'item' ? (
              <Leaf key={c.id} item={c} nested />
            ) : (
              <Typography key={c.id} color="error" variant="body2" sx={{ pl: 4 }}>
                Menu Items Error
              </Typography>
            ),
          )}
        </List>
      </Collapse>
    </>
  );
}

/** One sidebar entry: a link, or a collapse that opens and goes to its first child. */
export function MenuEntry({ entry }: { entry: MenuLeaf | MenuCollapse }) {
  if (entry.type === 'item') return <Leaf item={entry} />;
  if (entry.type === 'collapse') return <Collapsible entry={entry} />;
  return (
    <Typography color="error" variant="body2" sx={{ px: 2 }}>
      Menu Items Error
    </Typography>
  );
}
