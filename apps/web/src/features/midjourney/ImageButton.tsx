import { useRef, useState } from 'react';
import { Box, Button, ButtonGroup, Dialog, DialogContent, IconButton, ListItemText, Menu, MenuItem } from '@mui/material';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import Close from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../lib/toast';

/** The result image's split button (console-screens §3.13): Show, plus copy URL / download / open in a new window. */
export default function ImageButton({ url, name }: { url: string; name: string }) {
  const { t } = useTranslation('midjourney');
  const anchor = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState(false);
  const [open, setOpen] = useState(false);
  const download = () => {
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name}.png`;
    a.target = '_blank';
    a.rel = 'noopener';
    a.click();
  };
  const item = (label: string, action: () => void) => (
    <MenuItem
      onClick={() => {
        setMenu(false);
        action();
      }}
    >
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );
  return (
    <>
      <ButtonGroup size="small" variant="outlined" ref={anchor}>
        <Button onClick={() => setOpen(true)}>{t('show')}</Button>
        <Button size="small" aria-label={t('imageMenu')} onClick={() => setMenu(true)}>
          <ArrowDropDown fontSize="small" />
        </Button>
      </ButtonGroup>
      <Menu anchorEl={anchor.current} open={menu} onClose={() => setMenu(false)}>
        {item(t('copyUrl'), () => void copyText(url, t('image')))}
        {item(t('download'), download)}
        {item(t('openNew'), () => void window.open(url, '_blank', 'noopener'))}
      </Menu>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md">
        <IconButton aria-label={t('close')} onClick={() => setOpen(false)} sx={{ position: 'absolute', right: 8, top: 8, bgcolor: 'background.paper' }}>
          <Close />
        </IconButton>
        <DialogContent sx={{ p: 0, lineHeight: 0 }}>
          <Box component="img" src={url} alt={name} sx={{ width: 'min(640px, 85vw)', height: 'auto', maxHeight: '80vh', objectFit: 'contain' }} />
        </DialogContent>
      </Dialog>
    </>
  );
}
