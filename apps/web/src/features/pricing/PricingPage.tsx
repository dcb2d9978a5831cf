import { useEffect, useMemo, useState } from 'react';
import { Alert, Box, Button, ButtonGroup, Card, IconButton, Stack, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Refresh from '@mui/icons-material/Refresh';
import SystemUpdateAlt from '@mui/icons-material/SystemUpdateAlt';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Lock from '@mui/icons-material/Lock';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ModelOwner, PriceEntry } from '@one-hub/contract';
import { api } from '../../lib/api';
import { formatNumber } from '../../lib/format-number';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog, DataTable, PageHeader, StatusChip, readPageSize, writePageSize, type DataColumn } from '../../components/data';
import PriceDialog, { type PriceDialogMode } from './PriceDialog';
import PriceToolbar from './PriceToolbar';
import UpdateCheckerDialog from './UpdateCheckerDialog';
import { NO_PRICE_FILTERS, filterPrices, groupPrices, priceText, unpricedModels, type PriceGroup, type PriceUnit } from './price-logic';

type TabId = 'single' | 'multiple';
const SIZES: Record<TabId, { key: string; options: number[]; fallback: number }> = {
  // §14.7: the single tab starts at 20, one of its own options (the original's 24 was not)
  single: { key: 'pricing', options: [20, 50, 100], fallback: 20 },
  multiple: { key: 'pricing_multiple', options: [10, 20, 50], fallback: 10 },
};

/** Model prices (console-screens §3.12): one row per model, or models grouped by equal price. */
export default function PricingPage() {
  const { t, i18n } = useTranslation('pricing');
  const location = useLocation();
  const navigate = useNavigate();
  const tab: TabId = location.hash === '#multiple' ? 'multiple' : 'single';
  const prices = useQuery({ queryKey: ['prices'], queryFn: () => api<PriceEntry[]>('/api/prices') });
  const modelList = useQuery({ queryKey: ['prices-model-list'], queryFn: () => api<string[]>('/api/prices/model_list') });
  const ownerMap = useQuery({ queryKey: ['ownedby'], queryFn: () => api<Record<string, ModelOwner>>('/api/ownedby'), staleTime: 60_000 });
  const owners = useMemo(() => Object.values(ownerMap.data ?? {}).sort((a, b) => a.id - b.id), [ownerMap.data]);
  const ownerName = (id: number) => ownerMap.data?.[String(id)]?.name ?? t('unknownProvider', { id });
  const [filters, setFilters] = useState(NO_PRICE_FILTERS);
  const [unit, setUnit] = useState<PriceUnit>('K');
  const [page, setPage] = useState(0);
  const [sizes, setSizes] = useState(() => ({ single: readPageSize(SIZES.single.key, SIZES.single.fallback), multiple: readPageSize(SIZES.multiple.key, SIZES.multiple.fallback) }));
  const [dialog, setDialog] = useState<PriceDialogMode | null>(null);
  const [updating, setUpdating] = useState(false);
  const [deleting, setDeleting] = useState<string[] | null>(null);
  // `?set=<model>` (the "no price set" link of the available-models screen) opens a new price for it.
  const [params, setParams] = useSearchParams();
  const setModel = params.get('set');
  useEffect(() => {
    if (!setModel) return;
    setDialog({ kind: 'single', model: setModel });
    setParams({}, { replace: true });
  }, [setModel, setParams]);

  const all = prices.data ?? [];
  const shown = filterPrices(all, filters, ownerName);
  const groups = groupPrices(shown);
  const unpriced = unpricedModels(modelList.data ?? [], all);
  const badType = all.filter((p) => p.channel_type <= 0);
  const size = sizes[tab];
  const refetch = () => {
    void prices.refetch();
    void modelList.refetch();
  };

  const remove = async () => {
    if (!deleting) return;
    try {
      if (deleting.length === 1 && tab === 'single') await api(`/api/prices/single/${encodeURIComponent(deleting[0])}`, { method: 'DELETE' });
      else await api('/api/prices/multiple/delete', { method: 'PUT', json: { models: deleting } });
      showSuccess(t('deleted'));
      setDeleting(null);
      refetch();
    } catch (e) {
      showError(e);
    }
  };

  const priceCell = (p: { input: number; output: number; type: PriceEntry['type']; tiers?: PriceEntry['tiers'] }) => {
    const free = <StatusChip label={t('free')} color="success" />;
    if (p.type === 'times') return priceText(p.input, unit, 'times') ?? free;
    return (
      <Stack spacing={0.25}>
        {p.tiers?.length ? <Typography variant="caption" color="text.secondary">{t('tierUpTo', { above: formatNumber(p.tiers[0].above, i18n.language) })}</Typography> : null}
        <Typography variant="body2">{t('inputShort')} {priceText(p.input, unit, 'tokens') ?? t('free')}</Typography>
        <Typography variant="body2" color="text.secondary">{t('outputShort')} {priceText(p.output, unit, 'tokens') ?? t('free')}</Typography>
        {p.tiers?.map((tier) => (
          <Box key={tier.above} data-testid="price-tier" sx={{ pt: 0.5 }}>
            <Typography variant="caption" color="text.secondary">{t('tierAbove', { above: formatNumber(tier.above, i18n.language) })}</Typography>
            <Typography variant="body2">{t('inputShort')} {priceText(tier.input, unit, 'tokens') ?? t('free')}</Typography>
            <Typography variant="body2" color="text.secondary">{t('outputShort')} {priceText(tier.output, unit, 'tokens') ?? t('free')}</Typography>
            {/* The tier's own usage-class ratios; classes it leaves out follow the base price's. */}
            {tier.extra_ratios && Object.keys(tier.extra_ratios).length > 0 && (
              <Box data-testid="price-tier-ratios" title={t('tierRatios')} sx={{ pt: 0.25 }}>
                {extraCell(tier.extra_ratios)}
              </Box>
            )}
          </Box>
        ))}
      </Stack>
    );
  };
  const extraCell = (r?: Record<string, number> | null) => {
    const entries = Object.entries(r ?? {});
    if (!entries.length) return <Typography variant="caption" color="text.secondary">{t('noExtra')}</Typography>;
    return <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>{entries.map(([k, v]) => <StatusChip key={k} label={`${t(`ratio.${k}`, { defaultValue: k })} ×${v}`} color="secondary" />)}</Box>;
  };
  const typeChip = (type: PriceEntry['type']) => <StatusChip label={type === 'tokens' ? t('byTokens') : t('byTimes')} color={type === 'tokens' ? 'primary' : 'warning'} />;
  const hoverActions = { '@media (hover: hover)': { opacity: 0.35, transition: 'opacity .15s', 'tr:hover &': { opacity: 1 } } };
  const actions = (edit: () => void, del: () => void) => (
    <Stack direction="row" sx={{ justifyContent: 'flex-end', ...hoverActions }}>
      <Tooltip title={t('edit')}>
        <IconButton size="small" aria-label={t('edit')} onClick={edit} data-testid="price-edit">
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('delete')}>
        <IconButton size="small" color="error" aria-label={t('delete')} onClick={del}>
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );

  const singleColumns: DataColumn<PriceEntry>[] = [
    {
      field: 'model',
      header: t('model'),
      render: (p) => (
        <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 0.5, '& > *': { m: '0 !important' } }}>
          <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{p.model}</Typography>
          {p.locked && <Lock fontSize="inherit" color="warning" aria-label={t('lockedYes')} />}
          {typeChip(p.type)}
          <StatusChip label={ownerName(p.channel_type)} variant="outlined" />
        </Stack>
      ),
    },
    { field: 'price', header: t('priceColumn', { unit }), render: priceCell },
    { field: 'extra', header: t('extraRatios'), hideOnPhone: true, render: (p) => extraCell(p.extra_ratios) },
    { field: 'actions', header: t('actions'), align: 'right', render: (p) => actions(() => setDialog({ kind: 'single', price: p }), () => setDeleting([p.model])) },
  ];
  const multipleColumns: DataColumn<PriceGroup>[] = [
    { field: 'type', header: t('typeProvider'), render: (g) => <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>{typeChip(g.type)}<StatusChip label={ownerName(g.channel_type)} variant="outlined" /></Stack> },
    { field: 'price', header: t('priceColumn', { unit }), render: priceCell },
    {
      field: 'models',
      header: t('models'),
      render: (g) => (
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', maxWidth: 560 }}>
          <StatusChip label={g.models.length} color="info" variant="filled" />
          {g.models.map((m) => <StatusChip key={m} label={m} copyText={m} variant="outlined" />)}
        </Box>
      ),
    },
    { field: 'extra', header: t('extraRatios'), hideOnPhone: true, render: (g) => extraCell(g.extra_ratios) },
    { field: 'actions', header: t('actions'), align: 'right', render: (g) => actions(() => setDialog({ kind: 'batch', models: g.models, price: { model: g.models[0], type: g.type, channel_type: g.channel_type, input: g.input, output: g.output, locked: g.locked, extra_ratios: g.extra_ratios, tiers: g.tiers, service_ratios: g.service_ratios } }), () => setDeleting(g.models)) },
  ];

  const paging = {
    page,
    pageSize: size,
    total: tab === 'single' ? shown.length : groups.length,
    options: SIZES[tab].options,
    onPage: setPage,
    onPageSize: (s: number) => {
      writePageSize(SIZES[tab].key, s);
      setSizes((old) => ({ ...old, [tab]: s }));
      setPage(0);
    },
  };
  const slice = <T,>(rows: T[]) => rows.slice(page * size, page * size + size);

  return (
    <Box data-testid="pricing-page">
      <PageHeader
        subtitle={t('subtitle')}
        actions={
          <ButtonGroup variant="contained" sx={{ '& .MuiButton-root': { whiteSpace: 'nowrap', px: { xs: 1.25, sm: 2 } }, '& .MuiButton-startIcon': { mr: { xs: 0.5, sm: 1 } } }}>
            <Button startIcon={<Add />} onClick={() => setDialog(tab === 'single' ? { kind: 'single' } : { kind: 'batch' })} data-testid="price-create">
              {t('create')}
            </Button>
            <Button startIcon={<Refresh />} onClick={refetch}>
              {t('refresh')}
            </Button>
            <Button startIcon={<SystemUpdateAlt />} onClick={() => setUpdating(true)}>
              {t('updatePrices')}
            </Button>
          </ButtonGroup>
        }
      />
      <Alert severity="info" sx={{ mb: 2 }}>{t('rateInfo')}</Alert>
      {unpriced.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="unpriced-warning">
          {t('unpriced', { count: unpriced.length })} {unpriced.slice(0, 30).join(', ')}
          {unpriced.length > 30 ? ' …' : ''}
        </Alert>
      )}
      {badType.length > 0 && <Alert severity="warning" sx={{ mb: 2 }}>{t('badType', { models: badType.map((p) => p.model).join(', ') })}</Alert>}
      <Card>
        <Tabs
          value={tab}
          onChange={(_e, v: TabId) => {
            setPage(0);
            void navigate({ hash: v }, { replace: true });
          }}
          sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          <Tab value="single" label={t('tabSingle')} />
          <Tab value="multiple" label={t('tabMultiple')} />
        </Tabs>
        <PriceToolbar
          filters={filters}
          onFilters={(f) => {
            setFilters(f);
            setPage(0);
          }}
          unit={unit}
          onUnit={setUnit}
          owners={owners}
        />
        {tab === 'single' ? (
          <DataTable columns={singleColumns} rows={slice(shown)} rowKey={(p) => p.model} rowSx={(_p, i) => ((page * size + i + 1) % 8 === 0 ? { bgcolor: 'action.hover' } : undefined)} loading={prices.isFetching} error={prices.error ?? undefined} onRetry={refetch} emptyText={t('empty')} pagination={paging} />
        ) : (
          <DataTable columns={multipleColumns} rows={slice(groups)} rowKey={(g) => g.key} loading={prices.isFetching} error={prices.error ?? undefined} onRetry={refetch} emptyText={t('empty')} pagination={paging} />
        )}
      </Card>
      <PriceDialog mode={dialog} prices={all} unpriced={unpriced} owners={owners} onClose={() => setDialog(null)} onSaved={refetch} />
      <UpdateCheckerDialog open={updating} onClose={() => setUpdating(false)} onDone={refetch} />
      <ConfirmDialog
        open={deleting !== null}
        danger
        title={t('deleteTitle')}
        body={deleting && deleting.length > 1 ? t('deleteMany', { count: deleting.length }) : t('deleteOne', { name: deleting?.[0] })}
        confirmText={t('delete')}
        onClose={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </Box>
  );
}
