import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A project release feed on loopback: GET /releases/latest answers `latest` (GitHub's shape), 404 when unset. */
export class FakeReleaseFeed {
  latest: unknown = null;
  requests = 0;
  private server: Server = createServer((req, res) => {
    this.requests++;
    if (req.method !== 'GET' || req.url !== '/releases/latest' || this.latest === null) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.latest));
  });

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  start(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
