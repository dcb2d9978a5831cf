import { Button, IconButton, Tooltip } from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../lib/toast';

/** Copies `text` with the success toast (or the copy-by-hand toast); an icon, or a button with `label`. */
export function CopyButton({ text, label, toastLabel, size = 'small' }: { text: string; label?: string; toastLabel?: string; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  const copy = () => void copyText(text, toastLabel ?? label ?? '');
  if (label) {
    return (
      <Button size={size} variant="outlined" startIcon={<ContentCopy fontSize="small" />} onClick={copy}>
        {label}
      </Button>
    );
  }
  return (
    <Tooltip title={t('table.copy')}>
      <IconButton size={size} aria-label={t('table.copy')} onClick={copy}>
        <ContentCopy fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
