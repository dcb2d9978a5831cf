import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface FakeProxy {
  url: string;
  /** `host:port` of every tunnel opened through the proxy. */
  tunnels: string[];
  close(): Promise<void>;
}

function tracked(server: Server) {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function pipeBoth(a: Socket, b: Socket) {
  a.pipe(b);
  b.pipe(a);
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
}

/** An HTTP proxy that serves CONNECT tunnels only (what undici's ProxyAgent uses). */
export async function startHttpProxy(): Promise<FakeProxy> {
  const tunnels: string[] = [];
  const server = createHttpServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const [host, port] = String(req.url).split(':');
    tunnels.push(String(req.url));
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      pipeBoth(client, upstream);
    });
    upstream.on('error', () => client.destroy());
  });
  const close = tracked(server);
  return { url: `http://127.0.0.1:${await listen(server)}`, tunnels, close };
}

/** A SOCKS5 proxy (RFC 1928 CONNECT; RFC 1929 user/password when `auth` is given). */
export async function startSocks5Proxy(auth?: { user: string; pass: string }): Promise<FakeProxy> {
  const tunnels: string[] = [];
  const server = createServer((client) => {
    let stage: 'greeting' | 'auth' | 'request' = 'greeting';
    let buffered = Buffer.alloc(0);
    const onData = (data: Buffer) => {
      buffered = Buffer.concat([buffered, data]);
      if (stage === 'greeting') {
        if (buffered.length < 2 || buffered.length < 2 + buffered[1]) return;
        const methods = [...buffered.subarray(2, 2 + buffered[1])];
        buffered = buffered.subarray(2 + buffered[1]);
        const wanted = auth ? 0x02 : 0x00;
        if (!methods.includes(wanted)) return void client.end(Buffer.from([5, 0xff]));
        client.write(Buffer.from([5, wanted]));
        stage = auth ? 'auth' : 'request';
      }
      if (stage === 'auth') {
        if (buffered.length < 2) return;
        const ulen = buffered[1];
        if (buffered.length < 3 + ulen || buffered.length < 3 + ulen + buffered[2 + ulen]) return;
        const user = buffered.subarray(2, 2 + ulen).toString();
        const pass = buffered.subarray(3 + ulen, 3 + ulen + buffered[2 + ulen]).toString();
        buffered = buffered.subarray(3 + ulen + buffered[2 + ulen]);
        const ok = user === auth!.user && pass === auth!.pass;
        client.write(Buffer.from([1, ok ? 0 : 1]));
        if (!ok) return void client.end();
        stage = 'request';
      }
      if (stage === 'request') {
        if (buffered.length < 5) return;
        const atyp = buffered[3];
        const addrLen = atyp === 1 ? 4 : atyp === 4 ? 16 : 1 + buffered[4];
        if (buffered.length < 4 + addrLen + 2) return;
        const host = atyp === 1 ? [...buffered.subarray(4, 8)].join('.') : atyp === 3 ? buffered.subarray(5, 5 + buffered[4]).toString() : '::1';
        const port = buffered.readUInt16BE(4 + addrLen);
        const rest = buffered.subarray(4 + addrLen + 2);
        client.removeListener('data', onData);
        tunnels.push(`${host}:${port}`);
        const upstream = connect(port, host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
          if (rest.length) upstream.write(rest);
          pipeBoth(client, upstream);
        });
        upstream.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
      }
    };
    client.on('data', onData);
    client.on('error', () => undefined);
  });
  const close = tracked(server);
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : '';
  return { url: `socks5://${credentials}127.0.0.1:${await listen(server)}`, tunnels, close };
}
