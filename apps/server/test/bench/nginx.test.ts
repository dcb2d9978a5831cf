import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxBinary, startNginx } from '../../bench/nginx.js';
import { stop } from '../../bench/procs.js';

const binary = nginxBinary();
if (!binary) console.warn('skipping the bench nginx test: no nginx installed (apt-get install nginx-light)');

describe.runIf(binary)('the bench nginx side', () => {
  let upstream: Server;
  const seen: Array<{ auth?: string; connection?: string; body: string }> = [];
  const sockets = new Set<unknown>();
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, connection: req.headers.connection, body });
        sockets.add(req.socket);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        setImmediate(() => res.end('data: [DONE]\n\n'));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

  it('proxies to the upstream with the bench key over kept-alive connections, and stops', async () => {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const nginx = await startNginx(binary!, port, `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${nginx.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer caller' }, body: `{"n":${i}}` });
        expect(res.status).toBe(200);
        expect(await res.text()).toBe('data: one\n\ndata: [DONE]\n\n');
      }
      expect(seen.map((s) => s.body)).toEqual(['{"n":0}', '{"n":1}']);
      expect(seen.every((s) => s.auth === 'Bearer bench-key' && s.connection !== 'close')).toBe(true);
      expect(sockets.size).toBe(1); // the second request reused the upstream connection
    } finally {
      await stop(nginx.child);
      nginx.remove();
    }
    expect(nginx.child.exitCode ?? nginx.child.signalCode).not.toBeNull();
  });
});
