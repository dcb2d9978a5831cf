// Child processes of the benchmark (fake upstream, gateway nodes) and what /proc says about them.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';

/** The process exited before it was ready; `said` is what it wrote to stderr (a refusal's reason). */
export class ExitedBeforeReady extends Error {
  constructor(
    script: string,
    code: number | null,
    readonly said: string,
    out: string,
  ) {
    super(`${script} exited with ${code}: ${said}${out}`);
  }
}

/** Starts `node [nodeArgs] script` and answers once its output matches `readyText`. */
export function start(script: string, env: Record<string, string>, readyText: RegExp, nodeArgs: string[] = ['--import', 'tsx']): Promise<{ child: ChildProcess; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let said = '';
    child.stderr!.on('data', (d) => {
      if (said.length < 4096) said += String(d);
      process.stderr.write(d);
    });
    // BENCH_GATEWAY_LOG=file keeps the processes' output (e.g. with BENCH_NODE_FLAGS=--trace-gc).
    if (process.env.BENCH_GATEWAY_LOG) child.stdout!.pipe(createWriteStream(process.env.BENCH_GATEWAY_LOG, { flags: 'a' }));
    child.stdout!.on('data', (d) => {
      out += String(d);
      const match = readyText.exec(out);
      if (match) resolve({ child, line: match[0] });
    });
    child.on('exit', (code) => reject(new ExitedBeforeReady(script, code, said, out)));
  });
}

/** Sends SIGTERM and waits for the process to exit (SIGKILL after 15 s). */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** VmRSS (now) or VmHWM (peak) of a process, in MB. */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : NaN;
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** A process and its children (a node's primary and its workers). */
export function processTree(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return [pid, ...(children ? children.split(' ').map(Number) : [])];
}
