import { useState, type FormEvent, type ReactNode } from 'react';
import { Badge, Box, Button, Collapse, IconButton, Stack, Tooltip, useMediaQuery, useTheme } from '@mui/material';
import FilterList from '@mui/icons-material/FilterList';
import Search from '@mui/icons-material/Search';
import Refresh from '@mui/icons-material/Refresh';
import { useTranslation } from 'react-i18next';

export interface FilterBarProps {
  children: ReactNode;
  onSearch: () => void;
  /** "Refresh / clear search": resets filters and sort. */
  onReset: () => void;
  /** Extra toolbar buttons after search and reset. */
  actions?: ReactNode;
  /** How many filters are set: shown on the phone's filter toggle. */
  active?: number;
  /** Grid columns on wide screens (lg): chosen so the filters fill their rows. */
  columns?: number;
}

/** Filters in a wrapping grid, applied by Search (or Enter), never as the user types (console-screens §0). */
export function FilterBar({ children, onSearch, onReset, actions, active = 0, columns = 5 }: FilterBarProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  // On phones a long filter grid folds away behind a toggle.
  const [shown, setShown] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch();
  };
  const button = (label: string, icon: ReactNode, onClick: () => void, testId: string, submitType = false) =>
    phone ? (
      <Tooltip title={label} key={testId}>
        <IconButton data-testid={testId} aria-label={label} onClick={submitType ? undefined : onClick} type={submitType ? 'submit' : 'button'}>
          {icon}
        </IconButton>
      </Tooltip>
    ) : (
      <Button key={testId} data-testid={testId} startIcon={icon} onClick={submitType ? undefined : onClick} type={submitType ? 'submit' : 'button'}>
        {label}
      </Button>
    );
  return (
    <Box component="form" onSubmit={submit} data-testid="filter-bar" sx={{ p: 2 }}>
      <Collapse in={!phone || shown}>
        <Box sx={{ display: 'grid', gap: 1.5, mb: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)', lg: `repeat(${columns}, 1fr)` } }}>{children}</Box>
      </Collapse>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center' }}>
        {phone && (
          <Tooltip title={t('table.filters')}>
            <IconButton data-testid="filter-toggle" aria-label={t('table.filters')} aria-expanded={shown} onClick={() => setShown((s) => !s)} sx={{ mr: 'auto !important' }}>
              <Badge badgeContent={active} color="primary">
                <FilterList />
              </Badge>
            </IconButton>
          </Tooltip>
        )}
        {button(t('table.reset'), <Refresh />, onReset, 'filter-reset')}
        {button(t('table.search'), <Search />, onSearch, 'filter-search', true)}
        {actions}
      </Stack>
    </Box>
  );
}
