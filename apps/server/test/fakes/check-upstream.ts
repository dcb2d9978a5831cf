import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI chat endpoint that really does what the channel-check probes ask (key
 * `honest`): rejects an invalid role (with request ids of two relays in the message),
 * fetches image URLs and names the colour, follows a JSON schema and calls tools.
 * Key `sloppy` behaves like a bad reseller: another model, no usage, accepts anything.
 */
export class FakeCheckUpstream {
  private server?: Server;
  url = '';
  /** User agents of the image fetches it made. */
  readonly imageFetches: string[] = [];
  delayMs = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.answer(String(req.headers.authorization ?? '').replace(/^Bearer /, ''), JSON.parse(Buffer.concat(chunks).toString() || '{}'), res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async answer(key: string, body: any, res: import('node:http').ServerResponse) {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const honest = key === 'honest';
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    const reply = (message: Record<string, unknown>, finish = 'stop') =>
      send(200, {
        id: 'chatcmpl-check',
        object: 'chat.completion',
        created: 1700000000,
        model: honest ? `${body.model}-2024-08-06` : 'cheap-model-7b',
        choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }],
        ...(honest ? { usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } } : {}),
      });
    const messages = body.messages as Array<{ role: string; content: unknown }>;
    if (honest && messages.some((m) => !['system', 'user', 'assistant', 'tool'].includes(m.role))) {
      return send(400, { error: { message: "Invalid value: 'invalid_role'. (request id: 20240101a) (request id: 20240101b)", type: 'invalid_request_error', param: 'messages[0].role', code: 'invalid_value' } });
    }
    const parts = Array.isArray(messages[0]?.content) ? (messages[0].content as Array<{ type: string; image_url?: { url: string } }>) : [];
    const image = parts.find((p) => p.type === 'image_url')?.image_url?.url;
    if (image) {
      if (!honest) return reply({ content: 'A lovely picture.' });
      const fetched = await fetch(image, { headers: { 'user-agent': 'OpenAI Image Downloader' } }).catch(() => undefined);
      this.imageFetches.push('OpenAI Image Downloader');
      const bytes = fetched?.ok ? Buffer.from(await fetched.arrayBuffer()) : Buffer.alloc(0);
      return reply({ content: bytes.subarray(1, 4).toString() === 'PNG' ? 'Red.' : 'I cannot see any image.' });
    }
    if (body.response_format?.type === 'json_schema') return reply({ content: honest ? '{"city":"Paris","temperature":18.5}' : 'It is sunny in Paris.' });
    if (Array.isArray(body.tools) && honest) {
      const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
      return reply({ tool_calls: [call('call_1', 'add', { a: 3, b: 4 }), call('call_2', 'multiply', { a: 5, b: 6 })] }, 'tool_calls');
    }
    return reply({ content: 'Hello!' });
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
