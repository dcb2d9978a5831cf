import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomHex } from '../common/random.js';

/** SESSION_SECRET from env, else the one kept in the data folder, else a new one saved there. */
export function resolveSessionSecret(envSecret: string | undefined, dataDir: string): string {
  if (envSecret) return envSecret;
  const file = join(dataDir, 'session_secret');
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved) return saved;
  }
  const secret = randomHex(32);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
