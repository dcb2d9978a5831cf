import { useState, type ReactNode } from 'react';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import MoreHoriz from '@mui/icons-material/MoreHoriz';
import { useTranslation } from 'react-i18next';

export interface RowMenuItem {
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  /** Red text (delete). */
  danger?: boolean;
  hidden?: boolean;
}

/** A row's ⋯ button and its menu of actions (console-screens §0). */
export function RowMenu({ items, testId = 'row-menu' }: { items: RowMenuItem[]; testId?: string }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('table.more')}>
        <IconButton size="small" aria-label={t('table.more')} data-testid={testId} onClick={(e) => setAnchor(e.currentTarget)}>
          <MoreHoriz fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        {items
          .filter((it) => !it.hidden)
          .map((it) => (
            <MenuItem
              key={it.label}
              disabled={it.disabled}
              sx={it.danger ? { color: 'error.main' } : undefined}
              onClick={() => {
                setAnchor(null);
                it.onClick();
              }}
            >
              {it.icon && <ListItemIcon sx={it.danger ? { color: 'error.main' } : undefined}>{it.icon}</ListItemIcon>}
              <ListItemText>{it.label}</ListItemText>
            </MenuItem>
          ))}
      </Menu>
    </>
  );
}
