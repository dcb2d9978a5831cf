let injected = false;

/** Puts the site's analytics HTML into <head> once; scripts are re-created so the browser runs them. */
export function injectHeadHtml(html: string): void {
  if (injected || !html.trim()) return;
  injected = true;
  const tpl = document.createElement('template');
  tpl.innerHTML = html;
  for (const node of Array.from(tpl.content.childNodes)) {
    if (node instanceof HTMLScriptElement) {
      const s = document.createElement('script');
      for (const a of Array.from(node.attributes)) s.setAttribute(a.name, a.value);
      s.text = node.text;
      document.head.appendChild(s);
    } else {
      document.head.appendChild(node);
    }
  }
}
