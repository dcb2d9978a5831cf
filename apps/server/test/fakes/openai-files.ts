import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FilesRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const notFound = (id: string) => ({ error: { message: `No such File object: ${id}`, type: 'invalid_request_error', param: 'id', code: null } });

/**
 * OpenAI's stateful endpoints the gateway passes through (files, batches, model deletion),
 * in their real wire format; Azure paths (`/openai/...?api-version=`) are served the same way.
 */
export class FakeOpenAIFiles {
  private server?: Server;
  url = '';
  readonly received: FilesRequest[] = [];
  private files = new Map<string, { id: string; filename: string; purpose: string; content: Buffer }>();

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        this.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/openai/, '').replace(/^\/v1/, '');
        const reply = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json', 'openai-processing-ms': '12' });
          res.end(JSON.stringify(json));
        };
        this.route(req.method ?? '', path, req.headers, body, reply, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private route(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer, reply: (s: number, j: unknown) => void, res: import('node:http').ServerResponse) {
    const fileObject = (f: { id: string; filename: string; purpose: string; content: Buffer }) => ({
      id: f.id, object: 'file', bytes: f.content.length, created_at: 1700000000, filename: f.filename, purpose: f.purpose, status: 'processed',
    });
    if (method === 'POST' && path === '/files') {
      const text = body.toString('latin1');
      const purpose = /name="purpose"\r\n\r\n([^\r]*)/.exec(text)?.[1] ?? '';
      const filename = /name="file"; filename="([^"]*)"/.exec(text)?.[1] ?? '';
      const start = text.indexOf('\r\n\r\n', text.indexOf('name="file"')) + 4;
      const boundary = `\r\n--${/boundary=(.+)$/.exec(String(headers['content-type']))?.[1]}`;
      const content = body.subarray(start, text.indexOf(boundary, start));
      const file = { id: `file-${this.files.size + 1}`, filename, purpose, content };
      this.files.set(file.id, file);
      return reply(200, fileObject(file));
    }
    if (method === 'GET' && path === '/files') return reply(200, { object: 'list', data: [...this.files.values()].map(fileObject), has_more: false });
    const file = /^\/files\/([^/]+)(\/content)?$/.exec(path);
    if (file) {
      const found = this.files.get(file[1]);
      if (!found) return reply(404, notFound(file[1]));
      if (file[2] && method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(found.content);
      }
      if (method === 'DELETE') {
        this.files.delete(found.id);
        return reply(200, { id: found.id, object: 'file', deleted: true });
      }
      return reply(200, fileObject(found));
    }
    if (method === 'POST' && path === '/batches') {
      const req = JSON.parse(body.toString('utf8'));
      return reply(200, { id: 'batch_1', object: 'batch', endpoint: req.endpoint, input_file_id: req.input_file_id, completion_window: req.completion_window, status: 'validating', created_at: 1700000000 });
    }
    const model = /^\/models\/(.+)$/.exec(path);
    if (method === 'DELETE' && model) return reply(200, { id: decodeURIComponent(model[1]), object: 'model', deleted: true });
    return reply(404, { error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null } });
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
