import type { FormEvent, ReactNode } from 'react';
import { Box, Button, IconButton, Stack, Tooltip, useMediaQuery, useTheme } from '@mui/material';
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
}

/** Filters in a wrapping grid, applied by Search (or Enter), never as the user types (console-screens §0). */
export function FilterBar({ children, onSearch, onReset, actions }: FilterBarProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
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
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)', lg: 'repeat(5, 1fr)' } }}>{children}</Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
        {button(t('table.reset'), <Refresh />, onReset, 'filter-reset')}
        {button(t('table.search'), <Search />, onSearch, 'filter-search', true)}
        {actions}
      </Stack>
    </Box>
  );
}
