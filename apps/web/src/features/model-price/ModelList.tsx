import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DataTable, StatusChip, type DataColumn } from '../../components/data';
import type { CatalogModel, Unit } from './catalog';
import NoPriceSet from './NoPriceSet';
import { PriceValue } from './PriceLine';
import TierBadge from './TierBadge';

interface Props {
  rows: CatalogModel[];
  loading: boolean;
  group: string;
  ratio: number;
  unit: Unit;
  /** Administrators see "no price set" with a link instead of the default price. */
  admin?: boolean;
}

/** The list view (console-screens §3.14): model name (click copies), type, provider, input and output price; a tier mark on tiered prices. */
export default function ModelList({ rows, loading, group, ratio, unit, admin = false }: Props) {
  const { t } = useTranslation('model-price');
  const price = (m: CatalogModel, which: 'input' | 'output') =>
    admin && m.unpriced ? (which === 'input' ? <NoPriceSet model={m.id} /> : '') : !group || m.groups.includes(group) ? <PriceValue rate={m.price[which]} ratio={ratio} unit={unit} type={m.price.type} /> : <Typography variant="body2" color="warning.main">{t('noAccess')}</Typography>;
  // Tiers follow the same rule as the price: shown where the price is.
  const input = (m: CatalogModel) =>
    !(admin && m.unpriced) && (!group || m.groups.includes(group)) && m.price.tiers?.length ? (
      <Box sx={{ display: 'inline-flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75 }}>
        {price(m, 'input')}
        <TierBadge price={m.price} ratio={ratio} unit={unit} />
      </Box>
    ) : (
      price(m, 'input')
    );
  const columns: DataColumn<CatalogModel>[] = [
    { field: 'id', header: t('modelName'), render: (m) => <StatusChip label={m.id} copyText={m.id} variant="outlined" color="primary" /> },
    { field: 'type', header: t('type'), render: (m) => (m.price.type === 'tokens' ? t('byTokens') : t('byTimes')) },
    { field: 'owner', header: t('provider'), hideOnPhone: true },
    { field: 'input', header: t('input'), render: input },
    { field: 'output', header: t('output'), render: (m) => (m.price.type === 'tokens' || (admin && m.unpriced) ? price(m, 'output') : '-') },
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(m) => m.id} loading={loading} emptyText={t('empty')} />;
}
