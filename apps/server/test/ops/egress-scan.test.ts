import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every call to an outside party goes through src/egress/ (architecture.md, egress guard):
 * a file elsewhere that opens its own connection would skip FetchAllowPrivateNetworks.
 */
const SRC = join(import.meta.dirname, '../../src');

/** Files allowed to import undici values: the relay's pooled upstream agent, built by egress/outbound.ts. */
const UNDICI_ALLOWED = new Set(['relay/pipeline/flow/upstream.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Names an import statement brings in as values (type-only imports and `type X` entries left out). */
function valueImports(text: string, module: RegExp): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)'/g)) {
    if (m[1] || !module.test(m[3])) continue;
    const clause = m[2];
    const braced = /\{([^}]*)\}/.exec(clause);
    const outside = clause.replace(/\{[^}]*\}/, '').replace(/,/g, ' ').trim();
    if (outside) names.push(outside); // default or namespace import
    for (const n of braced?.[1].split(',') ?? []) if (n.trim() && !/^type\s/.test(n.trim())) names.push(n.trim());
  }
  return names;
}

/** What a source file does on its own that must go through egress/. */
function offences(file: string, text: string): string[] {
  const found: string[] = [];
  if (!UNDICI_ALLOWED.has(file) && valueImports(text, /^undici$/).length) found.push('imports undici');
  if (valueImports(text, /^nodemailer/).length || /(lazyRequire|require)\b[^(]*\(\s*['"]nodemailer/.test(text)) found.push('imports nodemailer (use smtpTransport)');
  if (valueImports(text, /^(node:)?(http|https|http2|net|tls)$/).some((n) => /\b(request|get|connect|createConnection|Socket|Agent)\b|^\*|^\w+$/.test(n) && !/^(rootCertificates|BlockList|isIP)$/.test(n))) {
    found.push('opens sockets with node:http/net/tls');
  }
  if (/from 'openid-client'/.test(text) && !/\[client\.customFetch\]:\s*oidcFetch/.test(text)) found.push('openid-client without oidcFetch');
  if (/new WebSocket\(/.test(text) && !/guardedWebSocket\(/.test(text)) found.push('ws client without guardedWebSocket');
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, ''); // comments may say "fetch(" freely
  for (const line of code.split('\n')) {
    if (/^\s*(async\s+)?fetch\s*\(/.test(line)) continue; // a method named fetch (task families)
    if (/(^|[^\w.$])fetch\s*\(|globalThis\.fetch/.test(line)) found.push(`global fetch: ${line.trim()}`);
  }
  return found;
}

describe('outbound calls go through src/egress/', () => {
  it('the scan recognises each kind of direct call', () => {
    expect(offences('a.ts', 'const res = await fetch(url);')).toHaveLength(1);
    expect(offences('a.ts', "import { request } from 'undici';")).toHaveLength(1);
    expect(offences('a.ts', "import type { Dispatcher } from 'undici';\nimport { type Agent } from 'undici';")).toHaveLength(0);
    expect(offences('a.ts', "import nodemailer from 'nodemailer';")).toHaveLength(1);
    expect(offences('a.ts', "const mailer = lazyRequire<typeof import('nodemailer')>('nodemailer');")).toHaveLength(1);
    expect(offences('a.ts', "import { connect } from 'node:net';")).toHaveLength(1);
    expect(offences('a.ts', "import * as client from 'openid-client';")).toHaveLength(1);
    expect(offences('a.ts', 'const ws = new WebSocket(url);')).toHaveLength(1);
    expect(offences('a.ts', '  async fetch(ctx, channel) {\n  const x = family.fetch(ctx);')).toHaveLength(0);
  });

  it('no file outside egress/ calls fetch, undici, nodemailer, sockets or a ws client on its own', () => {
    const found = sources(SRC)
      .map((path) => relative(SRC, path).split('\\').join('/'))
      .filter((file) => !file.startsWith('egress/'))
      .flatMap((file) => offences(file, readFileSync(join(SRC, file), 'utf8')).map((o) => `${file}: ${o}`));
    expect(found).toEqual([]);
  });
});
