import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Chip, Dialog, IconButton, InputAdornment, List, ListItemButton, ListItemText, TextField, Tooltip, Typography } from '@mui/material';
import SearchRounded from '@mui/icons-material/SearchRounded';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Channel, Page, Token, User } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { isAdminUser } from '../../../store/account';
import { useAppSelector } from '../../../store';
import { useMenu } from '../../use-menu';
import { matchScreens, menuLeaves, recordTarget, type QuickTarget } from '../../quick-search';

const names = <T,>(p: Promise<Page<T>>, pick: (r: T) => string) => p.then((page) => page.data.map(pick)).catch(() => [] as string[]);

/** Channels, tokens and users whose name contains `q` (5 each; channels and users for administrators only). */
async function findRecords(q: string, admin: boolean): Promise<QuickTarget[]> {
  const query = { page: 1, size: 5 };
  const [channels, tokens, users] = await Promise.all([
    admin ? names(api<Page<Channel>>('/api/channel/', { query: { ...query, name: q } }), (c) => c.name) : [],
    names(api<Page<Token>>('/api/token/', { query: { ...query, keyword: q } }), (t) => t.name),
    admin ? names(api<Page<User>>('/api/user/', { query: { ...query, keyword: q } }), (u) => u.username) : [],
  ]);
  return [...channels.map((n) => recordTarget('channel', n)), ...tokens.map((n) => recordTarget('token', n)), ...users.map((n) => recordTarget('user', n))];
}

/** Ctrl+K (⌘K): jump to any screen, or to a channel, token or user by name. */
export function QuickSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const admin = isAdminUser(useAppSelector((s) => s.account.user));
  const menu = useMenu();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(0);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => setTyped(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);

  const records = useQuery({ queryKey: ['quick-search', typed, admin], queryFn: () => findRecords(typed, admin), enabled: open && typed.length > 0, staleTime: 10_000 });
  const screens = useMemo(() => matchScreens(menuLeaves(menu), text, (id) => t(`menu.${id}`)), [menu, text, t]);
  const results = [...screens, ...(typed ? (records.data ?? []) : [])];

  const close = () => {
    setOpen(false);
    setText('');
    setActive(0);
  };
  const go = (target: QuickTarget | undefined) => {
    if (!target) return;
    close();
    navigate(target.url);
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, results.length - 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
    else if (e.key === 'Enter') go(results[active]);
    else return;
    e.preventDefault();
  };

  return (
    <>
      <Tooltip title={`${t('quickSearch.open')} (Ctrl+K)`}>
        <IconButton color="inherit" aria-label={t('quickSearch.open')} data-testid="quick-search-button" onClick={() => setOpen(true)}>
          <SearchRounded />
        </IconButton>
      </Tooltip>
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" slotProps={{ paper: { sx: { alignSelf: 'flex-start', mt: '12vh' } } }}>
        <TextField
          autoFocus
          fullWidth
          placeholder={t('quickSearch.placeholder')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKey}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchRounded /></InputAdornment> }, htmlInput: { 'data-testid': 'quick-search-input', 'aria-label': t('quickSearch.open') } }}
          sx={{ '& fieldset': { border: 0 }, borderBottom: 1, borderColor: 'divider' }}
        />
        <List dense sx={{ maxHeight: '50vh', overflowY: 'auto' }} data-testid="quick-search-results">
          {results.map((r, i) => (
            <ListItemButton key={`${r.kind}:${r.url}`} selected={i === active} onClick={() => go(r)} onMouseEnter={() => setActive(i)}>
              <ListItemText primary={r.label} />
              <Chip size="small" variant="outlined" label={t(`quickSearch.kind.${r.kind}`)} />
            </ListItemButton>
          ))}
          {results.length === 0 && (
            <Typography color="text.secondary" sx={{ px: 2, py: 1.5 }}>
              {records.isFetching ? t('quickSearch.searching') : t('quickSearch.none')}
            </Typography>
          )}
        </List>
      </Dialog>
    </>
  );
}
