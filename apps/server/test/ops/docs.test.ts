import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_BEGIN, CONFIG_END, configTable } from '../../src/config/doc-table.js';

// The README is the front door and docs/ holds one page per topic (issue 39 point 1).
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const docs = join(root, 'docs');
const README = join(root, 'README.md');

const KB = 1024;

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks and code spans, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every `[text](target)` and `![alt](target)` of a page, with its target as written. */
function links(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Links of `page` that point at no existing file (or at a heading its target does not have). */
function brokenLinks(page: string): string[] {
  const text = readFileSync(page, 'utf8');
  const broken: string[] = [];
  for (const target of links(text)) {
    if (isExternal(target)) continue;
    const [path, anchor] = target.split('#', 2);
    const file = path ? resolve(dirname(page), decodeURIComponent(path)) : page;
    if (!existsSync(file)) {
      broken.push(`${target} (no such file)`);
      continue;
    }
    if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target} (no such heading)`);
  }
  return broken;
}

const pagesUnderDocs = () => markdownUnder(docs);

describe('README and docs/', () => {
  it('the README is at most 15 KB', () => {
    expect(statSync(README).size).toBeLessThanOrEqual(15 * KB);
  });

  it('the README links every page directly under docs/ and the decisions index', () => {
    const linked = new Set(links(readFileSync(README, 'utf8')).filter((t) => !isExternal(t)).map((t) => resolve(root, t.split('#')[0])));
    const pages = readdirSync(docs)
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(docs, name));
    pages.push(join(docs, 'decisions', 'README.md'));
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((p) => !linked.has(p)).map((p) => relative(root, p))).toEqual([]);
  });

  it('the decisions index links every decision, and every decision has its parts', () => {
    const dir = join(docs, 'decisions');
    const index = join(dir, 'README.md');
    const linked = new Set(links(readFileSync(index, 'utf8')).map((t) => resolve(dir, t)));
    const decisions = readdirSync(dir).filter((name) => /^\d{4}-[a-z0-9-]+\.md$/.test(name));
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions.filter((name) => !linked.has(join(dir, name)))).toEqual([]);
    expect(readdirSync(dir).filter((name) => name !== 'README.md' && !decisions.includes(name))).toEqual([]);
    for (const name of decisions) {
      const text = readFileSync(join(dir, name), 'utf8');
      const parts = [`# ${name.slice(0, 4)}. `, '- Status: ', '## Context', '## Decision', '## Consequences'];
      expect(parts.filter((p) => !text.includes(p)), name).toEqual([]);
    }
  });

  it('no page under docs/ is over 50 KB', () => {
    const big = pagesUnderDocs().filter((p) => statSync(p).size > 50 * KB);
    expect(big.map((p) => `${relative(root, p)}: ${statSync(p).size} bytes`)).toEqual([]);
  });

  it('every relative link in the README and docs/ resolves', () => {
    const broken = [README, ...pagesUnderDocs()].flatMap((page) => brokenLinks(page).map((l) => `${relative(root, page)}: ${l}`));
    expect(broken).toEqual([]);
  });

  it('the link check sees a broken link', () => {
    expect(links('see [a](missing.md) and `[b](code.md)` and [c](https://example.com)')).toEqual(['missing.md', 'https://example.com']);
    expect(anchors('# Tracing (OpenTelemetry)\n## The `floor`\n## Two\n## Two')).toEqual(new Set(['tracing-opentelemetry', 'the-floor', 'two', 'two-1']));
  });

  it("configuration.md's table is the one the schema generates now (npm run docs:config rewrites it)", () => {
    const page = readFileSync(join(docs, 'configuration.md'), 'utf8');
    const begin = page.indexOf(CONFIG_BEGIN);
    const end = page.indexOf(CONFIG_END);
    expect(begin).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(begin);
    const onPage = page.slice(begin + CONFIG_BEGIN.length, end).trim();
    expect(onPage).toBe(configTable());
  });

  it('the generated table has a row for every setting of the schema, with its description', async () => {
    const { EnvSchema } = await import('../../src/config/env.js');
    const rows = configTable().split('\n').slice(2);
    const names = rows.map((r) => /^\| `([A-Z0-9_]+)` \|/.exec(r)?.[1]);
    expect(names).toEqual(Object.keys(EnvSchema.shape));
    const port = rows.find((r) => r.startsWith('| `PORT` '));
    expect(port).toContain('| `port` | integer 0–65535 | `3000` | HTTP port');
    const flag = rows.find((r) => r.startsWith('| `TRUST_PROXY` '));
    expect(flag).toContain('| boolean (`true` or `1`) | `false` |');
  });
});
