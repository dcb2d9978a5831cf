import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LogCapture } from '@one-hub/contract';
import { api } from '../../../lib/api';

const block = { m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontFamily: 'monospace', fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 240, overflow: 'auto' } as const;

/** Root: the captured (redacted) bodies of the request behind a log row, loaded on demand. */
export default function CaptureView({ requestId }: { requestId: string }) {
  const { t } = useTranslation('log');
  const [open, setOpen] = useState(false);
  const q = useQuery({ queryKey: ['log-capture', requestId], queryFn: () => api<LogCapture[]>('/api/log/capture', { query: { request_id: requestId } }), enabled: open, retry: false });
  if (!open)
    return (
      <Button size="small" variant="outlined" onClick={() => setOpen(true)} sx={{ mt: 1 }} data-testid="capture-open">
        {t('capture.show')}
      </Button>
    );
  if (q.isLoading) return <CircularProgress size={20} sx={{ mt: 1 }} />;
  if (q.error) return <Alert severity="error">{q.error.message}</Alert>;
  if (!q.data?.length) return <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>{t('capture.none')}</Typography>;
  return (
    <Stack spacing={1} sx={{ mt: 1, textAlign: 'left' }} data-testid="capture-view">
      {q.data.map((c) => (
        <Box key={c.id}>
          <Typography variant="caption" color="text.secondary">
            {t('capture.attempt', { channel: c.channel_id, status: c.status })}
          </Typography>
          <Typography variant="subtitle2">{t('capture.requestHeaders')}</Typography>
          <Box component="pre" sx={block}>{c.request_headers}</Box>
          <Typography variant="subtitle2">{t('capture.request')}</Typography>
          <Box component="pre" sx={block}>{c.request_body}</Box>
          <Typography variant="subtitle2">{t(c.stream ? 'capture.responseStream' : 'capture.response')}</Typography>
          <Box component="pre" sx={block}>{c.response_body}</Box>
        </Box>
      ))}
    </Stack>
  );
}
