import DOMPurify from 'dompurify';
import { marked } from 'marked';

export type ContentKind = 'empty' | 'url' | 'html' | 'markdown';

/** Home/about/notice content (console-screens §2.1): a URL is framed, HTML is shown, anything else is markdown. */
export function contentKind(text: string | null | undefined): ContentKind {
  const s = (text ?? '').trim();
  if (!s) return 'empty';
  if (/^https?:\/\/\S+$/i.test(s)) return 'url';
  if (s.startsWith('<') && /<\/[a-z][\w-]*\s*>/i.test(s)) return 'html';
  return 'markdown';
}

export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { ADD_ATTR: ['target'] });
}

/** Markdown → sanitised HTML. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(marked.parse(text, { async: false, gfm: true, breaks: true }));
}

/** Text as HTML that shows it literally (for libraries that write labels with innerHTML). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
