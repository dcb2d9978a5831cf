import { useMemo } from 'react';
import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { renderMarkdown } from '../lib/content';
import { useAppDispatch, useAppSelector } from '../store';
import { openNotice } from '../store/notice';
import { proseSx } from './RichContent';

/** The notice as sanitised markdown in a popup. */
export default function NoticeDialog() {
  const { t } = useTranslation();
  const { text, open } = useAppSelector((s) => s.notice);
  const dispatch = useAppDispatch();
  const html = useMemo(() => renderMarkdown(text), [text]);
  const close = () => dispatch(openNotice(false));
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="notice-title">
      <DialogTitle id="notice-title" sx={{ pr: 6 }}>
        {t('chrome.notice')}
        <IconButton aria-label={t('common.close')} onClick={close} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={proseSx} data-testid="notice-content" dangerouslySetInnerHTML={{ __html: html }} />
    </Dialog>
  );
}
