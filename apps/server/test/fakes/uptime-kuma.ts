import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The public status-page API of an Uptime Kuma server (the two calls the dashboard makes). */
export class FakeUptimeKuma {
  private server?: Server;
  url = '';
  readonly requests: string[] = [];
  /** Status pages by slug; an unknown slug answers 404 like Uptime Kuma does. */
  readonly pages = new Map<string, { page: unknown; heartbeat: unknown }>();

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.requests.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      const heartbeat = url.pathname.match(/^\/api\/status-page\/heartbeat\/([^/]+)$/);
      const page = url.pathname.match(/^\/api\/status-page\/([^/]+)$/);
      const slug = decodeURIComponent((heartbeat ?? page)?.[1] ?? '');
      const found = this.pages.get(slug);
      if (!found || (!heartbeat && !page)) {
        res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ ok: false, msg: 'Not Found' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(heartbeat ? found.heartbeat : found.page));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
