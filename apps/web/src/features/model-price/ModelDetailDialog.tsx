import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import type { UserGroup } from '@one-hub/contract';
import { copyText } from '../../lib/toast';
import { formatNumber } from '../../lib/format-number';
import { StatusChip } from '../../components/data';
import { ratiosOf, type CatalogModel, type Unit } from './catalog';
import { PriceValue, useRatioText } from './PriceLine';

/** A model's facts and its price in every group (console-screens §3.14). */
export default function ModelDetailDialog({ model, groups, unit, onClose }: { model: CatalogModel | null; groups: UserGroup[]; unit: Unit; onClose: () => void }) {
  const { t, i18n } = useTranslation('model-price');
  const ratioText = useRatioText();
  const fact = (label: string, value: React.ReactNode) => (
    <Stack direction="row" spacing={2} sx={{ py: 0.5 }}>
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: 120 }}>{label}</Typography>
      <Box sx={{ flex: 1, minWidth: 0 }}>{value}</Box>
    </Stack>
  );
  return (
    <Dialog open={model !== null} onClose={onClose} maxWidth="sm" fullWidth>
      {model && (
        <>
          <DialogTitle sx={{ display: 'flex', alignItems: 'center', gap: 1, wordBreak: 'break-all' }}>
            {model.id}
            <IconButton size="small" aria-label={t('copyId')} onClick={() => void copyText(model.id, model.id)}>
              <ContentCopy fontSize="small" />
            </IconButton>
          </DialogTitle>
          <DialogContent dividers>
            {model.description && <Typography sx={{ mb: 2 }}>{model.description}</Typography>}
            {fact(t('type'), model.price.type === 'tokens' ? t('byTokens') : t('byTimes'))}
            {fact(t('provider'), model.owner)}
            {fact(t('contextLength'), model.contextLength || '-')}
            {fact(t('maxTokens'), model.maxTokens || '-')}
            {fact(t('modalities'), `${model.inputModalities.join(', ') || '-'} → ${model.outputModalities.join(', ') || '-'}`)}
            {fact(t('tags'), <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>{model.tags.length ? model.tags.map((x) => <StatusChip key={x} label={x} />) : '-'}</Box>)}
            <Table size="small" sx={{ mt: 2 }}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('group')}</TableCell>
                  <TableCell>{model.price.type === 'times' ? t('perCall') : t('input')}</TableCell>
                  {model.price.type === 'tokens' && <TableCell>{t('output')}</TableCell>}
                  <TableCell>{t('extra')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {groups.filter((g) => model.groups.includes(g.symbol)).map((g) => (
                  <TableRow key={g.symbol}>
                    <TableCell>{g.name} <Typography component="span" variant="caption" color="text.secondary">×{g.ratio}</Typography></TableCell>
                    <TableCell><PriceValue rate={model.price.input} ratio={g.ratio} unit={unit} type={model.price.type} /></TableCell>
                    {model.price.type === 'tokens' && <TableCell><PriceValue rate={model.price.output} ratio={g.ratio} unit={unit} type="tokens" /></TableCell>}
                    <TableCell>{ratioText(ratiosOf(model.price)) || '-'}</TableCell>
                  </TableRow>
                ))}
                {model.price.type === 'tokens' &&
                  groups.filter((g) => model.groups.includes(g.symbol)).flatMap((g) =>
                    (model.price.tiers ?? []).map((tier) => (
                      <TableRow key={`${g.symbol}-${tier.above}`} data-testid="detail-tier">
                        <TableCell>{g.name} <Typography component="span" variant="caption" color="text.secondary">{t('tierAbove', { above: formatNumber(tier.above, i18n.language) })}</Typography></TableCell>
                        <TableCell><PriceValue rate={tier.input} ratio={g.ratio} unit={unit} type="tokens" /></TableCell>
                        <TableCell><PriceValue rate={tier.output} ratio={g.ratio} unit={unit} type="tokens" /></TableCell>
                        <TableCell>{ratioText(ratiosOf(model.price, tier)) || '-'}</TableCell>
                      </TableRow>
                    )),
                  )}
              </TableBody>
            </Table>
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
              {t('priceNote')}
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common:common.close')}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
