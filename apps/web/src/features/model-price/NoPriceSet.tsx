import { Link, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { StatusChip } from '../../components/data';

/** An administrator's view of a model with no price record: said plainly, with the way to set one. */
export default function NoPriceSet({ model }: { model: string }) {
  const { t } = useTranslation('model-price');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} data-testid="no-price-set">
      <StatusChip label={t('noPriceSet')} color="warning" title={t('noPriceSetHint')} />
      <Link component={RouterLink} to={`/panel/pricing?set=${encodeURIComponent(model)}`} variant="body2" data-testid="set-price-link">
        {t('setPrice')}
      </Link>
    </Stack>
  );
}
