import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const dockerfile = readFileSync(`${root}Dockerfile`, 'utf8');

describe('container files', () => {
  it('the Dockerfile builds in stages from a BASE argument and ships a non-root image with /data, a health check and PORT', () => {
    expect(dockerfile).toMatch(/^ARG BASE=node:\d+-bookworm-slim$/m);
    const stages = dockerfile.match(/^FROM .*$/gm) ?? [];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages.at(-1)).toBe('FROM ${BASE}');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).toMatch(/^USER (?!root|0\b)\S+/m);
    expect(runtime).toMatch(/^VOLUME \["\/data"\]/m);
    expect(runtime).toMatch(/DATA_DIR=\/data/);
    expect(runtime).toMatch(/SQLITE_PATH=\/data\//);
    const health = runtime.slice(runtime.indexOf('HEALTHCHECK'));
    expect(health).toMatch(/^HEALTHCHECK /);
    expect(health.split('\nCMD')[0]).toMatch(/process\.env\.PORT[\s\S]*\/api\/status/);
    // The runtime stage copies built output and production dependencies, never the sources.
    expect(runtime).not.toMatch(/^COPY (apps|packages|\.)\s/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(readFileSync(`${root}.dockerignore`, 'utf8')).toMatch(/node_modules/);
  });

  it('docker-compose runs One Hub with PostgreSQL and Redis on named volumes, started once they are healthy', () => {
    const compose = parse(readFileSync(`${root}docker-compose.yml`, 'utf8'));
    const { services, volumes } = compose;
    expect(Object.keys(services).sort()).toEqual(['one-hub', 'postgres', 'redis']);
    expect(services['one-hub'].environment.SQL_DSN).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(services['one-hub'].environment.REDIS_CONN_STRING).toBe('redis://redis:6379');
    expect(services['one-hub'].depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    for (const name of ['postgres', 'redis']) expect(services[name].healthcheck.test).toBeTruthy();
    const mounted = Object.values(services).flatMap((s) => ((s as { volumes?: string[] }).volumes ?? []).map((v) => v.split(':')[0]));
    expect(mounted.sort()).toEqual(Object.keys(volumes).sort());
    expect(services['one-hub'].volumes).toEqual(['one-hub-data:/data']);
  });
});

/**
 * Builds the image with podman and starts it. Opt-in (TEST_CONTAINER=1, set by .ci/run): it needs
 * root, podman, runc and debootstrap, and the npm registry. The base images come from Debian
 * packages and this machine's Node (deploy/container/test-base.sh); no registry image is pulled.
 */
function why(): string | undefined {
  if (!process.env.TEST_CONTAINER) return 'TEST_CONTAINER is not set';
  if (process.getuid?.() !== 0) return 'it needs root (debootstrap, podman storage)';
  for (const tool of ['podman', 'runc', 'debootstrap']) if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  const probe = podman(['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  if (probe.status !== 0) return `podman cannot run here: ${probe.stderr.trim().split('\n').at(-1)}`;
  return undefined;
}

function podman(args: string[], timeout = 60_000) {
  return spawnSync('podman', ['--runtime', 'runc', '--cgroup-manager=cgroupfs', ...args], { encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
}

/** Limits no higher than this process's own (podman cannot raise them). */
function ulimits(): string[] {
  const hard = (flag: string, cap: number) => {
    const v = spawnSync('bash', ['-c', `ulimit -H${flag}`], { encoding: 'utf8' }).stdout.trim();
    return v === 'unlimited' || !(Number(v) > 0) ? cap : Math.min(cap, Number(v));
  };
  const nofile = hard('n', 65_536);
  const nproc = hard('u', 4_096);
  return ['--ulimit', `nofile=${nofile}:${nofile}`, '--ulimit', `nproc=${nproc}:${nproc}`];
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const reason = why();
if (reason) console.warn(`skipping the container image test: ${reason}`);

describe.skipIf(Boolean(reason))('the container image', () => {
  it('builds from a Debian base with this machine\'s Node, starts, honours PORT, answers /api/status and is healthy', async () => {
    const base = spawnSync('bash', [`${root}deploy/container/test-base.sh`], { encoding: 'utf8', timeout: 600_000 });
    expect(base.status, base.stderr).toBe(0);
    const [baseImage, buildImage] = base.stdout.trim().split(/\s+/);
    const image = 'localhost/one-hub:container-test';
    const build = podman(['build', '--format', 'docker', '--network', 'host', ...ulimits(), '--build-arg', `BASE=${baseImage}`, '--build-arg', `BUILD_BASE=${buildImage}`, '-t', image, root], 1_200_000);
    expect(build.status, build.stderr.slice(-4000)).toBe(0);

    const inspected = JSON.parse(podman(['image', 'inspect', image]).stdout)[0];
    expect(inspected.Config.User).toBe('1000:1000');
    expect(Object.keys(inspected.Config.Volumes)).toEqual(['/data']);
    expect((inspected.Healthcheck ?? inspected.Config.Healthcheck).Test.join(' ')).toContain('/api/status');
    // Production dependencies only: the server's native module, no console libraries or test tools.
    const listing = podman(['run', '--rm', ...ulimits(), '--entrypoint', 'sh', image, '-c', 'ls node_modules; ls node_modules/better-sqlite3/build/Release'], 120_000);
    expect(listing.status, listing.stderr).toBe(0);
    expect(listing.stdout).toContain('better_sqlite3.node');
    for (const dev of ['vitest', 'react', '@mui', 'vite', 'openai']) expect(listing.stdout.split('\n')).not.toContain(dev);

    const port = await freePort();
    const name = `one-hub-test-${process.pid}`;
    const volume = `${name}-data`;
    try {
      // No systemd here to run the health check on a timer: the test runs it once itself.
      const started = podman(['run', '-d', '--name', name, '--network', 'host', '--health-interval', 'disable', ...ulimits(), '-e', `PORT=${port}`, '-e', 'HOST=127.0.0.1', '-v', `${volume}:/data`, image]);
      expect(started.status, started.stderr).toBe(0);
      let status: { success?: boolean; data?: { version?: string } } | undefined;
      for (let i = 0; i < 240 && !status; i++) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/status`);
          if (res.ok) status = (await res.json()) as typeof status;
        } catch {
          const state = podman(['inspect', '--format', '{{.State.Status}}', name]).stdout.trim();
          if (state !== 'running') throw new Error(`the container stopped (${state}): ${podman(['logs', name]).stderr.slice(-2000)}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      }
      expect(status?.success).toBe(true);
      expect(podman(['healthcheck', 'run', name]).status).toBe(0);
      // The SQLite file and the generated session secret live in the volume, written by the non-root user.
      const files = podman(['exec', name, 'sh', '-c', 'id -u; ls /data']);
      expect(files.stdout.split('\n')).toEqual(expect.arrayContaining(['1000', 'one-hub.db', 'session_secret']));
    } finally {
      podman(['rm', '-f', '-t', '2', name]);
      podman(['volume', 'rm', '-f', volume]);
    }
  }, 1_500_000);
});
