import { useEffect, useMemo, useRef } from 'react';
import { Box, type Theme } from '@mui/material';
import hljs from 'highlight.js/lib/common';
import { renderMarkdown } from '../../../lib/content';
import { proseSx } from '../../../components/RichContent';

/** highlight.js token colours for both themes (GitHub-like light, One Dark-like dark). */
const codeSx = (th: Theme) => {
  const dark = th.palette.mode === 'dark';
  const c = (light: string, night: string) => ({ color: dark ? night : light });
  return {
    '& pre code.hljs': { display: 'block', fontSize: 13, background: 'none', p: 0 },
    '& .hljs-keyword, & .hljs-selector-tag, & .hljs-built_in, & .hljs-type': c('#cf222e', '#c678dd'),
    '& .hljs-string, & .hljs-attr, & .hljs-regexp': c('#0a3069', '#98c379'),
    '& .hljs-number, & .hljs-literal': c('#0550ae', '#d19a66'),
    '& .hljs-comment, & .hljs-quote': { ...c('#6e7781', '#7f848e'), fontStyle: 'italic' },
    '& .hljs-title, & .hljs-title.function_, & .hljs-section': c('#8250df', '#61afef'),
    '& .hljs-variable, & .hljs-params, & .hljs-property': c('#953800', '#e06c75'),
    '& .hljs-meta, & .hljs-tag, & .hljs-name': c('#116329', '#56b6c2'),
  };
};

/** An answer rendered as sanitised markdown with highlighted code blocks. */
export default function MessageBody({ text }: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const html = useMemo(() => renderMarkdown(text), [text]);
  useEffect(() => {
    ref.current?.querySelectorAll<HTMLElement>('pre code').forEach((el) => {
      if (!el.dataset.highlighted) hljs.highlightElement(el);
    });
  }, [html]);
  return <Box ref={ref} sx={(th) => ({ ...(proseSx as object), ...codeSx(th), '& > :first-child': { mt: 0 }, '& > :last-child': { mb: 0 } })} dangerouslySetInnerHTML={{ __html: html }} />;
}
