import { useMemo } from 'react';
import { Box, type SxProps, type Theme } from '@mui/material';
import { FRAME_SANDBOX } from '../lib/frame';
import { contentKind, renderMarkdown, sanitizeHtml } from '../lib/content';

export const proseSx: SxProps<Theme> = {
  lineHeight: 1.7,
  wordBreak: 'break-word',
  '& img': { maxWidth: '100%' },
  '& pre': { overflowX: 'auto', p: 1.5, borderRadius: 1, bgcolor: 'action.hover' },
  '& a': { color: 'primary.main' },
  '& table': { borderCollapse: 'collapse', maxWidth: '100%', display: 'block', overflowX: 'auto' },
  '& td, & th': { border: 1, borderColor: 'divider', px: 1 },
};

/** Admin-written content: a URL becomes a full-height frame, HTML is sanitised, anything else is markdown. */
export default function RichContent({ text, minHeight }: { text: string; minHeight?: string }) {
  const kind = contentKind(text);
  const html = useMemo(() => (kind === 'html' ? sanitizeHtml(text) : kind === 'markdown' ? renderMarkdown(text) : ''), [kind, text]);
  if (kind === 'empty') return null;
  if (kind === 'url') {
    return <Box component="iframe" title="content" sandbox={FRAME_SANDBOX} src={text.trim()} sx={{ border: 0, width: '100%', height: minHeight ?? 'calc(100vh - 136px)', display: 'block' }} />;
  }
  return <Box sx={{ ...proseSx, fontSize: kind === 'markdown' ? 17 : undefined }} dangerouslySetInnerHTML={{ __html: html }} />;
}
