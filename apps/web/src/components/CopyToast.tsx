import { forwardRef } from 'react';
import { Alert, AlertTitle, Box, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { closeSnackbar, SnackbarContent, type CustomContentProps } from 'notistack';

declare module 'notistack' {
  interface VariantOverrides {
    copy: { copyText: string };
  }
}

/** The persistent "copy by hand" toast: the message and the text, selectable, until closed. */
const CopyToast = forwardRef<HTMLDivElement, CustomContentProps & { copyText?: string }>(function CopyToast({ id, message, copyText }, ref) {
  return (
    <SnackbarContent ref={ref} role="alert">
      <Alert
        severity="warning"
        variant="filled"
        sx={{ width: '100%', maxWidth: 420 }}
        action={
          <IconButton size="small" color="inherit" aria-label="close" onClick={() => closeSnackbar(id)}>
            <CloseIcon fontSize="small" />
          </IconButton>
        }
      >
        <AlertTitle sx={{ mb: 0.5 }}>{message}</AlertTitle>
        <Box component="code" sx={{ display: 'block', userSelect: 'all', wordBreak: 'break-all', fontSize: 13 }}>
          {copyText}
        </Box>
      </Alert>
    </SnackbarContent>
  );
});
export default CopyToast;
