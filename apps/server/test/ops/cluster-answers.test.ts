import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_DIR } from '../gateway-process.js';

/** How a worker's question to the node fails (src/cluster.ts), each with its listed code and status. */
describe('questions between worker processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-cluster-'));
  const port = 20_000 + Math.floor(Math.random() * 11_000);
  let primary: ChildProcess;
  let out = '';
  const ask = async (worker: number, topic: string) => (await fetch(`http://127.0.0.1:${port + worker}/${topic}`, { headers: { connection: 'close' } })).json();
  const waitFor = (text: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = out.match(text);
        if (m) return resolve(m), primary.stdout!.off('data', check), primary.off('exit', gone);
      };
      const gone = (code: number) => reject(new Error(`the node exited (${code}): ${out}`));
      primary.stdout!.on('data', check);
      primary.once('exit', gone);
      check();
    });

  beforeAll(async () => {
    primary = spawn(process.execPath, ['--import', 'tsx', join(SERVER_DIR, 'test/ops/cluster-node.ts'), dir, String(port)], { cwd: SERVER_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    primary.stdout!.on('data', (d) => (out += String(d)));
    primary.stderr!.on('data', (d) => (out += String(d)));
    await waitFor(/serving with 2 worker processes/);
  }, 60_000);
  afterAll(() => {
    if (primary?.exitCode === null) primary.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers worker 1’s question from worker 0', async () => {
    expect(await ask(1, 'echo')).toEqual({ value: 'from 1' });
  });

  it('answers a topic worker 0 has no handler for with 500 node_no_handler, naming the topic', async () => {
    expect(await ask(1, 'nobody')).toEqual({ status: 500, code: 'node_no_handler', message: 'nothing answers nobody' });
  });

  it('answers a question worker 0 never answers with 503 node_unanswered (after the 10 s wait)', async () => {
    expect(await ask(1, 'hang')).toEqual({ status: 503, code: 'node_unanswered', message: 'the node did not answer' });
  }, 30_000);

  it('answers 503 node_restarting while worker 0 is started again, and worker 0 answers once it listens', async () => {
    process.kill(Number((await waitFor(/worker 0 listens, pid (\d+)/))[1]), 'SIGKILL');
    await waitFor(/worker 0 \(pid \d+\) exited/);
    expect(await ask(1, 'echo')).toEqual({ status: 503, code: 'node_restarting', message: 'the node’s first worker is starting again; try in a moment' });
    // forked again, not yet listening: still restarting, not a question lost in a worker without handlers
    const held = Number((await waitFor(/worker 0 held (\d+)/))[1]);
    expect(await ask(1, 'echo')).toEqual({ status: 503, code: 'node_restarting', message: 'the node’s first worker is starting again; try in a moment' });
    process.kill(held, 'SIGUSR2');
    await expect.poll(() => ask(1, 'echo'), { timeout: 10_000, interval: 50 }).toEqual({ value: 'from 1' });
  }, 40_000);
});
