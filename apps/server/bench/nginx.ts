// `nginx` in BENCH_STORAGE: Debian's nginx (`apt-get install nginx-light`) in the gateway's place, one
// worker process proxying to the fake upstream over kept-alive connections, so the table shows what a
// C proxy does on this machine beside `floor` (the least Node proxy) and One Hub.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The nginx binary: on PATH, or in the sbin folders a non-root PATH often lacks; undefined when not installed. */
export function nginxBinary(path = process.env.PATH ?? ''): string | undefined {
  const dirs = [...path.split(':').filter(Boolean), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, 'nginx'), constants.X_OK);
      return join(dir, 'nginx');
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The configuration: everything it writes (pid, logs, temp bodies) stays in `dir`; `daemon off` comes from -g. */
export function nginxConf(dir: string, port: number, upstream: URL): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream fake {
    server ${upstream.host};
    keepalive 512;
  }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 1000000;
    client_body_buffer_size 64k;
    location / {
      proxy_pass http://fake;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Authorization "Bearer bench-key";
      proxy_buffering off;
    }
  }
}
`;
}

/** Resolves once something accepts connections on the port (nginx says nothing when it is ready). */
async function listening(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(true)).on('error', () => resolve(false));
      socket.unref();
      socket.once('connect', () => socket.destroy());
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error('nginx did not listen within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts `nginx -c <conf> -g 'daemon off;'` in the foreground; `remove` deletes its folder once it has stopped. */
export async function startNginx(binary: string, port: number, upstreamUrl: string): Promise<{ child: ChildProcess; url: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-bench-nginx-'));
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConf(dir, port, new URL(upstreamUrl)));
  // -e: the log of start-up errors, before the configuration's error_log applies (nginx 1.19.5+).
  const child = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    await listening(port, child);
  } catch (error) {
    child.kill('SIGTERM'); // the master stops its worker too (SIGKILL would leave the worker behind)
    let log = '';
    try {
      log = readFileSync(join(dir, 'error.log'), 'utf8').trim().split('\n').at(-1) ?? '';
    } catch {
      // nothing logged
    }
    remove();
    throw new Error(`${(error as Error).message}${log ? `: ${log}` : ''}`);
  }
  return { child, url: `http://127.0.0.1:${port}`, remove };
}
