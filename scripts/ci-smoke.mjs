// The README's second command on whatever Node runs this script: `npm start` in a fresh data
// directory serves the console and the gateway on one port, root signs in, and SIGTERM stops it
// cleanly. Used by .ci/run on the machine's own Node; the whole suite runs on Node 24 after it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const data = mkdtempSync(join(tmpdir(), 'one-hub-smoke-'));
// Below the ephemeral range, where no outgoing connection can hold the port.
const port = 20_000 + Math.floor(Math.random() * 12_000);
const password = `smoke-${Math.random().toString(36).slice(2)}`;
const base = `http://127.0.0.1:${port}`;
const started = Date.now();

const server = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: data, SQLITE_PATH: join(data, 'one-hub.db'), INITIAL_ROOT_PASSWORD: password, SQL_DSN: '', REDIS_CONN_STRING: '' },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let output = '';
server.stdout.on('data', (b) => (output += b));
server.stderr.on('data', (b) => (output += b));
// 'close': npm has exited and every process holding its output (the server) has too.
const exited = new Promise((resolve) => server.on('close', (code, signal) => resolve({ code, signal })));

function fail(message) {
  console.error(`smoke: ${message}\n--- server output (last 4 KB) ---\n${output.slice(-4096)}`);
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {}
  rmSync(data, { recursive: true, force: true });
  process.exit(1);
}

async function waitForStatus() {
  const deadline = Date.now() + 300_000; // the first start builds the console
  let stopped = false;
  exited.then(() => (stopped = true));
  while (Date.now() < deadline && !stopped) {
    try {
      const res = await fetch(`${base}/api/status`);
      if (res.ok) return res.json();
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  return fail(stopped ? 'npm start exited before serving' : 'no answer on /api/status within 5 minutes');
}

const status = await waitForStatus();
if (status.success !== true) fail(`/api/status answered ${JSON.stringify(status)}`);
const page = await fetch(`${base}/`);
const html = await page.text();
if (!page.ok || !html.includes('<div id="root">')) fail(`the console page answered ${page.status}: ${html.slice(0, 200)}`);
const login = await fetch(`${base}/api/user/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'root', password }),
});
const body = await login.json();
if (body.success !== true) fail(`root could not sign in: ${JSON.stringify(body)}`);
const served = Date.now() - started;

process.kill(-server.pid, 'SIGTERM'); // as Ctrl-C would: npm, the start script and the server
const stop = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 15_000))]);
if (!stop) fail('the server did not stop within 15 s of SIGTERM');
// npm re-raises the signal its script stopped on, so SIGTERM is npm's clean exit here.
if (stop.code !== 0 && stop.signal !== 'SIGTERM') fail(`npm start exited with ${stop.code ?? stop.signal} after SIGTERM`);
const errors = output.split('\n').filter((l) => /^\{.*"level":(50|60)/.test(l));
if (errors.length > 0) fail(`the server logged errors:\n${errors.join('\n')}`);
rmSync(data, { recursive: true, force: true });
console.log(`smoke: npm start on Node ${process.versions.node} served the console, /api/status and root's sign-in after ${(served / 1000).toFixed(1)} s and stopped cleanly`);
