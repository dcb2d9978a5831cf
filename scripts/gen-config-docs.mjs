// `npm run docs:config`: rewrites the settings table of docs/configuration.md (between
// <!-- config:begin --> and <!-- config:end -->) from the configuration schema
// (apps/server/src/config/env.ts). Runs under tsx, which loads the TypeScript schema.
// `--check` only reports whether the page is current (exit 1 when it is not).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rewriteConfigDoc } from '../apps/server/src/config/doc-table.ts';

const page = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('usage: npm run docs:config [-- --check]\n  rewrites the settings table of docs/configuration.md from the configuration schema');
  process.exit(0);
}
const unknown = args.find((a) => a !== '--check');
if (unknown) {
  console.error(`unknown option ${unknown} (try --help)`);
  process.exit(2);
}
const before = readFileSync(page, 'utf8');
const after = rewriteConfigDoc(before);
if (args.includes('--check')) {
  if (before !== after) {
    console.error('docs/configuration.md differs from the configuration schema: run npm run docs:config');
    process.exit(1);
  }
  console.log('docs/configuration.md matches the configuration schema');
} else if (before !== after) {
  writeFileSync(page, after);
  console.log('docs/configuration.md: settings table rewritten');
} else {
  console.log('docs/configuration.md: settings table already current');
}
