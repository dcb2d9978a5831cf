// `floor` in BENCH_STORAGE: the least an OpenAI gateway written for Node does per request, run in place of
// One Hub so the table shows what this machine allows. It reads and parses the request body, forwards the
// bytes over kept-alive connections with undici's dispatch (as the gateway does), parses a JSON answer (any
// gateway must, for its usage) and writes a stream's chunks through as they come; no keys, channel
// selection, holds, billing or logs.
import { createServer, type ServerResponse } from 'node:http';
import { Pool } from 'undici';

const upstream = new Pool(process.env.FLOOR_UPSTREAM!, { connections: 512, pipelining: 1, keepAliveTimeout: 30_000 });
const HEADERS = { 'content-type': 'application/json', authorization: 'Bearer bench-key' };

function forward(path: string, body: Buffer, stream: boolean, res: ServerResponse): void {
  const parts: Buffer[] = [];
  upstream.dispatch(
    { method: 'POST', path, headers: HEADERS, body },
    {
      onRequestStart() {},
      onResponseStart(_c, status) {
        if (stream) res.writeHead(status, { 'content-type': 'text/event-stream' });
        else res.statusCode = status;
      },
      onResponseData(_c, chunk) {
        if (stream) res.write(chunk);
        else parts.push(chunk);
      },
      onResponseEnd() {
        if (stream) return void res.end();
        const answer = Buffer.concat(parts);
        JSON.parse(answer.toString('utf8'));
        res.writeHead(res.statusCode, { 'content-type': 'application/json', 'content-length': answer.length });
        res.end(answer);
      },
      onResponseError(_c, error) {
        if (!res.headersSent) res.writeHead(502);
        res.end(error.message);
      },
    },
  );
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    forward(req.url!, body, Boolean((JSON.parse(body.toString('utf8')) as { stream?: boolean }).stream), res);
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => process.exit(0));
