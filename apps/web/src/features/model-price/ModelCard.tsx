import { Box, Button, Card, Chip, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../lib/toast';
import { StatusChip } from '../../components/data';
import { ratiosOf, type CatalogModel, type Unit } from './catalog';
import { PriceValue } from './PriceLine';
import PriceTiers, { RatioLine } from './PriceTiers';
import NoPriceSet from './NoPriceSet';

interface Props {
  model: CatalogModel;
  group: string;
  /** The group's display name for the "current group" line. */
  groupName?: string;
  /** Administrators see "no price set" with a link instead of the default price. */
  admin?: boolean;
  ratio: number;
  unit: Unit;
  onDetail: () => void;
}

/** One model as a card: name with copy, description, modalities, tags, billing, prices for the chosen group. */
export default function ModelCard({ model, group, groupName, ratio, unit, onDetail, admin = false }: Props) {
  const { t } = useTranslation('model-price');
  const usable = !group || model.groups.includes(group);
  return (
    <Card data-testid="model-card" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.25, height: '100%' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 700, wordBreak: 'break-all', lineHeight: 1.3 }}>
            {model.id}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {model.owner}
          </Typography>
        </Box>
        <Tooltip title={t('copyId')}>
          <IconButton size="small" aria-label={t('copyId')} onClick={() => void copyText(model.id, model.id)}>
            <ContentCopy fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      {model.description && (
        <Typography variant="body2" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
          {model.description}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
        <StatusChip label={model.price.type === 'tokens' ? t('byTokens') : t('byTimes')} color={model.price.type === 'tokens' ? 'primary' : 'warning'} />
        {[...new Set([...model.inputModalities, ...model.outputModalities])].map((m) => (
          <StatusChip key={m} label={t(`modality.${m}`, { defaultValue: m })} color="info" variant="outlined" />
        ))}
        {model.tags.map((tag) => (
          <Chip key={tag} label={tag} size="small" variant="outlined" />
        ))}
      </Box>
      <Box sx={{ flex: 1 }} />
      {admin && model.unpriced ? (
        <Box sx={{ bgcolor: 'action.hover', borderRadius: 2, p: 1.25 }}>
          <NoPriceSet model={model.id} />
        </Box>
      ) : usable ? (
        <Stack spacing={0.5} sx={{ bgcolor: 'action.hover', borderRadius: 2, p: 1.25 }}>
          <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
            <Typography variant="body2" color="text.secondary">{model.price.type === 'times' ? t('perCall') : t('input')}</Typography>
            <PriceValue rate={model.price.input} ratio={ratio} unit={unit} type={model.price.type} />
          </Stack>
          {model.price.type === 'tokens' && (
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography variant="body2" color="text.secondary">{t('output')}</Typography>
              <PriceValue rate={model.price.output} ratio={ratio} unit={unit} type="tokens" />
            </Stack>
          )}
          {model.price.type === 'tokens' && <RatioLine ratios={ratiosOf(model.price)} testId="card-ratios" />}
          <PriceTiers price={model.price} ratio={ratio} unit={unit} testId="card" />
        </Stack>
      ) : (
        <Typography variant="body2" color="warning.main" sx={{ bgcolor: 'action.hover', borderRadius: 2, p: 1.25, textAlign: 'center' }}>
          {t('noAccess')}
        </Typography>
      )}
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="caption" color="text.secondary">
          {group ? t('currentGroup', { group: groupName || group }) : ''}
        </Typography>
        <Button size="small" onClick={onDetail}>
          {t('viewDetail')}
        </Button>
      </Stack>
    </Card>
  );
}
