import { useState } from 'react';
import { Button, Checkbox, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip, useMediaQuery, useTheme } from '@mui/material';
import ViewColumn from '@mui/icons-material/ViewColumnOutlined';
import { useTranslation } from 'react-i18next';

interface Props {
  columns: Array<{ field: string; header: string }>;
  hidden: string[];
  onChange: (hidden: string[]) => void;
}

/** A menu of column checkboxes with select-all. */
export default function ColumnSettings({ columns, hidden, onChange }: Props) {
  const { t } = useTranslation('log');
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const shown = columns.filter((c) => !hidden.includes(c.field)).length;
  const toggle = (field: string) => onChange(hidden.includes(field) ? hidden.filter((f) => f !== field) : [...hidden, field]);
  return (
    <>
      {phone ? (
        <Tooltip title={t('columns')}>
          <IconButton aria-label={t('columns')} onClick={(e) => setAnchor(e.currentTarget)}>
            <ViewColumn />
          </IconButton>
        </Tooltip>
      ) : (
        <Button startIcon={<ViewColumn />} onClick={(e) => setAnchor(e.currentTarget)} data-testid="column-settings">
          {t('columns')}
        </Button>
      )}
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => onChange(shown === columns.length ? columns.map((c) => c.field) : [])}>
          <ListItemIcon>
            <Checkbox size="small" edge="start" checked={shown === columns.length} indeterminate={shown > 0 && shown < columns.length} />
          </ListItemIcon>
          <ListItemText primary={t('selectAll')} />
        </MenuItem>
        {columns.map((c) => (
          <MenuItem key={c.field} onClick={() => toggle(c.field)}>
            <ListItemIcon>
              <Checkbox size="small" edge="start" checked={!hidden.includes(c.field)} />
            </ListItemIcon>
            <ListItemText primary={c.header} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
