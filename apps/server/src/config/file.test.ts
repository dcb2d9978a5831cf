import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadSettings } from './env.js';

const dir = () => mkdtempSync(join(tmpdir(), 'onehub-config-'));
const write = (folder: string, name: string, text: string) => {
  writeFileSync(join(folder, name), text);
  return join(folder, name);
};

describe('config file', () => {
  it('flag beats environment beats file beats default, one key each', () => {
    const cwd = dir();
    write(cwd, 'config.yaml', 'port: 4001\nlog_level: debug\nchannel:\n  test_frequency: 5\n');
    const config = loadSettings({ cwd, argv: ['--port', '4002'], env: { LOG_LEVEL: 'warn', PORT: '4003' }, warn: () => {} });
    expect(config.PORT).toBe(4002);
    expect(config.LOG_LEVEL).toBe('warn');
    expect(config.CHANNEL_TEST_FREQUENCY).toBe(5);
    expect(config.SYNC_FREQUENCY).toBe(600);
    // Without the flag the environment's port wins, without either the file's.
    expect(loadSettings({ cwd, argv: [], env: { PORT: '4003' } }).PORT).toBe(4003);
    expect(loadSettings({ cwd, argv: [], env: {} }).PORT).toBe(4001);
  });

  it('finds the file by --config, then CONFIG_FILE, then ./config.yaml; a missing default is no error', () => {
    const cwd = dir();
    const a = write(cwd, 'a.yaml', 'sync_frequency: 11\n');
    write(cwd, 'b.yaml', 'sync_frequency: 22\n');
    expect(loadSettings({ cwd, argv: ['--config', a], env: { CONFIG_FILE: 'b.yaml' } }).SYNC_FREQUENCY).toBe(11);
    expect(loadSettings({ cwd, argv: ['--config=b.yaml'], env: {} }).SYNC_FREQUENCY).toBe(22);
    expect(loadSettings({ cwd, argv: [], env: { CONFIG_FILE: 'b.yaml' } }).SYNC_FREQUENCY).toBe(22);
    expect(loadSettings({ cwd, argv: [], env: {} }).SYNC_FREQUENCY).toBe(600);
    expect(() => loadSettings({ cwd, argv: ['--config', 'missing.yaml'], env: {} })).toThrow(/cannot read config file .*missing\.yaml: ENOENT/);
    expect(() => loadSettings({ cwd, argv: ['--config'], env: {} })).toThrow('--config needs a value');
  });

  it('warns about unknown keys and refuses invalid values naming the key and where it was set', () => {
    const cwd = dir();
    write(cwd, 'config.yaml', 'gin_mode: debug\nnotify:\n  carrierPigeon:\n    loft: x\nglobal:\n  api_rate_limit: 50\n');
    const warnings: string[] = [];
    expect(loadSettings({ cwd, argv: [], env: {}, warn: (m) => warnings.push(m) }).GLOBAL_API_RATE_LIMIT).toBe(50);
    expect(warnings).toEqual([expect.stringMatching(/config\.yaml: unknown key gin_mode \(ignored\)$/), expect.stringMatching(/unknown key notify\.carrierPigeon\.loft \(ignored\)$/)]);

    write(cwd, 'config.yaml', 'port: 70000\nnode_type: leader\n');
    expect(() => loadSettings({ cwd, argv: [], env: {} })).toThrow(/config\.yaml: port: .*65535[\s\S]*config\.yaml: node_type: /);
    expect(() => loadSettings({ cwd, argv: [], env: { PORT: 'abc' }, warn: () => {} })).toThrow(/^invalid configuration:\nPORT: [\s\S]*node_type/);
    expect(() => loadSettings({ cwd, argv: ['--port', '-1'], env: {}, warn: () => {} })).toThrow(/--port: /);

    write(cwd, 'config.yaml', 'port: 3000\nhost: x\nhost: y\n');
    expect(() => loadSettings({ cwd, argv: [], env: {} })).toThrow(/config\.yaml:3: invalid YAML/);
    write(cwd, 'config.yaml', '- a list\n');
    expect(() => loadSettings({ cwd, argv: [], env: {} })).toThrow(/must be a mapping/);
    write(cwd, 'config.yaml', 'metrics:\n  user: [a, b]\n');
    expect(() => loadSettings({ cwd, argv: [], env: {} })).toThrow(/metrics\.user must be a single value/);
  });

  it('config.example.yaml documents every key, loads without warnings and gives the defaults', () => {
    const example = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../config.example.yaml');
    const warnings: string[] = [];
    const loaded = loadSettings({ cwd: dir(), argv: ['--config', example], env: {}, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(loaded).toEqual(EnvSchema.parse({}));
    // Optional keys are shown commented out; uncommented, every key of the schema is there.
    const cwd = dir();
    const all = readFileSync(example, 'utf8').replace(/^# ([a-z_]+:)/gm, '$1');
    write(cwd, 'config.yaml', all);
    const seen: string[] = [];
    loadSettings({ cwd, argv: [], env: {}, warn: (m) => seen.push(m) });
    expect(seen).toEqual([]);
    const text = all.toLowerCase();
    for (const key of Object.keys(EnvSchema.shape)) {
      const parts = key.toLowerCase().split('_');
      const written = parts.some((_, i) => text.includes(`${parts.slice(i).join('_')}:`));
      expect(written, key).toBe(true);
    }
  });
});
