// A loopback TCP port that refuses connections until opened, then forwards them to a real server:
// a database or Redis that is "down" and later "comes up".
import { createServer, connect, type Server, type Socket } from 'node:net';

/** A loopback port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  /** A proxy to `target` on a port that refuses connections until `open()`. */
  static async reserve(target: { host: string; port: number }): Promise<TcpProxy> {
    return new TcpProxy(await closedPort(), target);
  }

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (this.server) await new Promise((resolve) => this.server!.close(resolve));
    this.server = undefined;
  }
}
