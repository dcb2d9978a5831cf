import { useState } from 'react';
import { Box, Button, Collapse } from '@mui/material';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import { useTranslation } from 'react-i18next';
import RichContent from '../../components/RichContent';

/** Shows the draft as visitors will see it: markdown rendered and HTML sanitised, a URL framed. */
export function ContentPreview({ text, name }: { text: string; name: string }) {
  const { t } = useTranslation('setting');
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ display: 'contents' }}>
      <Button size="small" startIcon={<VisibilityOutlined />} onClick={() => setOpen(!open)} disabled={!text.trim()} aria-expanded={open}>
        {open ? t('hidePreview') : t('preview')}
      </Button>
      <Collapse in={open && Boolean(text.trim())} unmountOnExit sx={{ flexBasis: '100%' }}>
        <Box data-testid={`preview-${name}`} sx={{ p: 2, border: 1, borderColor: 'divider', borderRadius: 2, maxHeight: 420, overflow: 'auto' }}>
          <RichContent text={text} minHeight="360px" />
        </Box>
      </Collapse>
    </Box>
  );
}
