import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Loader } from '../../bench/load.js';

describe('bench Loader', () => {
  const servers: Server[] = [];
  const hits = [0, 0];
  const origins: string[] = [];

  beforeAll(async () => {
    for (const i of [0, 1]) {
      const server = createServer((req, res) => {
        hits[i]++;
        req.resume().on('end', () => res.end('{}'));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      servers.push(server);
      origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
  });
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  it('deals its connections across several origins', async () => {
    const loader = new Loader({ origin: origins, path: '/', headers: { 'content-type': 'application/json' }, body: '{}' }, 4);
    await loader.run(0.2);
    const result = await loader.close();
    expect(result.errors).toBe(0);
    expect(result.requests).toBe(hits[0] + hits[1]);
    // Two workers each: the halves differ only by scheduling.
    expect(hits[0]).toBeGreaterThan(result.requests / 4);
    expect(hits[1]).toBeGreaterThan(result.requests / 4);
  });
});
