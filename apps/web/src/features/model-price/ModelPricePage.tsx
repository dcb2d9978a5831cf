import { useMemo, useState } from 'react';
import { Alert, Avatar, Box, Card, Chip, FormControlLabel, InputAdornment, Stack, Switch, TablePagination, TextField, ToggleButton, ToggleButtonGroup, Typography, useMediaQuery, useTheme } from '@mui/material';
import Search from '@mui/icons-material/Search';
import GridView from '@mui/icons-material/GridViewOutlined';
import ViewList from '@mui/icons-material/ViewListOutlined';
import SearchOff from '@mui/icons-material/SearchOff';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../lib/error-handler';
import { PHONE_PAGINATOR, readPageSize, writePageSize } from '../../components/data';
import { MODALITIES, NO_CATALOG_FILTERS, allTags, buildCatalog, filterCatalog, groupOptions, initialGroup, type CatalogModel, type Unit } from './catalog';
import ModelCard from './ModelCard';
import ModelDetailDialog from './ModelDetailDialog';
import ModelList from './ModelList';
import { useCatalogData } from './use-catalog';
import { useAppSelector } from '../../store';
import { ROLE } from '@one-hub/contract';

const SIZES = [20, 30, 60, 100];
type View = 'card' | 'list';

/** Available models and their prices per user group (console-screens §3.14); also the public /price page. */
/** `showTitle`: the public page has no layout title above it, so it shows its own gradient one. */
export default function ModelPricePage({ showTitle = false }: { showTitle?: boolean }) {
  const { t } = useTranslation('model-price');
  const admin = useAppSelector((s) => (s.account.user?.role ?? 0) >= ROLE.admin);
  const data = useCatalogData();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [filters, setFilters] = useState(NO_CATALOG_FILTERS);
  const [unit, setUnit] = useState<Unit>('K');
  const [view, setView] = useState<View>('card');
  // The group the reader picked; until then the user's own group, once the account has loaded.
  const [picked, setGroup] = useState('');
  const [page, setPage] = useState(0);
  // §14.6: this page size is remembered like the others
  const [size, setSize] = useState(() => readPageSize('model_price', 20));
  const [detail, setDetail] = useState<CatalogModel | null>(null);

  const groups = useMemo(() => groupOptions(data.groups.data ?? {}), [data.groups.data]);
  const userGroup = useAppSelector((s) => s.account.user?.group);
  const group = picked || (groups[0] ? initialGroup(groups, userGroup) : '');
  const catalog = useMemo(() => buildCatalog(data.models.data ?? {}, data.infos.data ?? []), [data.models.data, data.infos.data]);
  const shown = filterCatalog(catalog, filters, group);
  const tags = allTags(catalog);
  const ownerList = useMemo(() => {
    const known = new Map((data.owners.data ?? []).map((o) => [o.name, o]));
    return [...new Set(catalog.map((m) => m.owner))].map((name) => ({ name, id: known.get(name)?.id ?? Number.MAX_SAFE_INTEGER, icon: known.get(name)?.icon ?? '' })).sort((a, b) => a.id - b.id);
  }, [catalog, data.owners.data]);
  const ratio = groups.find((g) => g.symbol === group)?.ratio ?? 1;
  const rows = shown.slice(page * size, page * size + size);

  const setFilter = <K extends keyof typeof filters>(k: K, v: (typeof filters)[K]) => {
    setFilters((f) => ({ ...f, [k]: v }));
    setPage(0);
  };
  const goTo = (p: number) => {
    setPage(p);
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };
  const chipRow = (label: string, items: { value: string; label: React.ReactNode; icon?: React.ReactElement }[], value: string, onPick: (v: string) => void) => (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: 72 }}>{label}</Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
        {items.map((i) => (
          <Chip key={i.value} label={i.label} icon={i.icon} size="small" color={value === i.value ? 'primary' : 'default'} variant={value === i.value ? 'filled' : 'outlined'} onClick={() => onPick(i.value)} />
        ))}
      </Box>
    </Stack>
  );
  const error = data.models.error;

  return (
    <Box data-testid="model-price-page">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
        <Box>
          {showTitle && (
            <Typography variant="h4" component="h1" sx={{ background: (th) => `linear-gradient(90deg, ${th.palette.primary.main}, ${th.palette.secondary.main})`, WebkitBackgroundClip: 'text', backgroundClip: 'text', color: 'transparent', width: 'fit-content' }}>
            {t('title')}
          </Typography>
          )}
          <Typography color="text.secondary">{t('subtitle')}</Typography>
        </Box>
        <ToggleButtonGroup size="small" exclusive value={view} onChange={(_e, v: View | null) => v && setView(v)}>
          <ToggleButton value="card" aria-label={t('cardView')}><GridView fontSize="small" /></ToggleButton>
          <ToggleButton value="list" aria-label={t('listView')}><ViewList fontSize="small" /></ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      <Card sx={{ p: 2, mb: 2 }}>
        <Stack spacing={1.5}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              size="small"
              fullWidth
              placeholder={t('searchPlaceholder')}
              value={filters.search}
              onChange={(e) => setFilter('search', e.target.value)}
              slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> }, htmlInput: { 'data-testid': 'model-search' } }}
            />
            <ToggleButtonGroup size="small" exclusive value={unit} onChange={(_e, v: Unit | null) => v && setUnit(v)}>
              <ToggleButton value="K">1K</ToggleButton>
              <ToggleButton value="M">1M</ToggleButton>
            </ToggleButtonGroup>
          </Stack>
          {chipRow(t('provider'), [{ value: '', label: t('all') }, ...ownerList.map((o) => ({ value: o.name, label: o.name, icon: o.icon ? <Avatar src={o.icon} alt="" sx={{ width: 18, height: 18 }} /> : undefined }))], filters.owner, (v) => setFilter('owner', v))}
          {chipRow(t('modalityLabel'), [{ value: '', label: t('all') }, ...MODALITIES.map((m) => ({ value: m, label: t(`modality.${m}`) }))], filters.modality, (v) => setFilter('modality', v))}
          {tags.length > 0 && chipRow(t('tags'), [{ value: '', label: t('all') }, ...tags.map((x) => ({ value: x, label: x }))], filters.tag, (v) => setFilter('tag', v))}
          {groups.length > 0 && (
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ alignItems: { md: 'center' } }}>
              {chipRow(
                t('group'),
                groups.map((g) => ({ value: g.symbol, label: <span>{g.name} <Box component="span" sx={{ color: g.symbol === group ? 'inherit' : g.ratio === 0 ? 'success.main' : g.ratio > 1 ? 'warning.main' : 'info.main', fontWeight: 700 }}>{g.ratio === 0 ? t('free') : `x${g.ratio}`}</Box></span> })),
                group,
                (v) => { setGroup(v); setPage(0); },
              )}
              <FormControlLabel sx={{ ml: { md: 'auto' } }} control={<Switch size="small" checked={filters.onlyGroup} onChange={(e) => setFilter('onlyGroup', e.target.checked)} />} label={<Typography variant="body2">{t('onlyGroup')}</Typography>} />
            </Stack>
          )}
        </Stack>
      </Card>
      {error ? (
        <Alert severity="error">{describeError(error, t).text}</Alert>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{t('total', { count: shown.length })}</Typography>
          {view === 'list' ? (
            <Card>
              <ModelList rows={rows} loading={data.models.isLoading} group={group} ratio={ratio} unit={unit} admin={admin} />
            </Card>
          ) : data.models.isLoading ? null : shown.length === 0 ? (
            <Card sx={{ py: 6, textAlign: 'center' }} data-testid="model-empty">
              <SearchOff color="disabled" sx={{ fontSize: 48 }} />
              <Typography variant="h6">{t('empty')}</Typography>
              <Typography color="text.secondary">{t('emptyTip')}</Typography>
            </Card>
          ) : (
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)', xl: 'repeat(4, 1fr)' } }}>
              {rows.map((m) => (
                <ModelCard key={m.id} admin={admin} model={m} group={group} groupName={groups.find((g) => g.symbol === group)?.name} ratio={ratio} unit={unit} onDetail={() => setDetail(m)} />
              ))}
            </Box>
          )}
          <TablePagination
            sx={phone ? PHONE_PAGINATOR : undefined}
            component="div"
            count={shown.length}
            page={Math.min(page, Math.max(0, Math.ceil(shown.length / size) - 1))}
            rowsPerPage={size}
            rowsPerPageOptions={SIZES}
            onPageChange={(_e, p) => goTo(p)}
            onRowsPerPageChange={(e) => {
              const s = Number(e.target.value);
              writePageSize('model_price', s);
              setSize(s);
              goTo(0);
            }}
            labelRowsPerPage={phone ? '' : t('common:table.rowsPerPage')}
            labelDisplayedRows={({ from, to, count }) => t('common:table.displayed', { from, to, count })}
            showFirstButton
            showLastButton
          />
        </>
      )}
      <ModelDetailDialog model={detail} groups={groups} unit={unit} onClose={() => setDetail(null)} />
    </Box>
  );
}
