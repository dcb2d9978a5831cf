import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/** Names only an operator should ever see; none may reach a caller's answer. */
export const LEAK_MARKERS = ['internal-llm.corp.local', '10.1.2.3:8000'];

/**
 * A provider in trouble: every request fails with a 500 whose body echoes the credential it was
 * sent and names the private hosts behind it, as careless real gateways do. Any provider's key
 * spelling is read (bearer, x-api-key, x-goog-api-key, key=).
 */
export class LeakyUpstream extends FakeHttp<object> {
  protected keyOf(req: IncomingMessage, query: URLSearchParams): string {
    const auth = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    return auth || String(req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? query.get('key') ?? '');
  }

  protected handle(req: Received, res: ServerResponse): void {
    const message = `upstream internal-llm.corp.local (10.1.2.3:8000) refused ${req.method} ${req.path} with key ${req.key}`;
    sendJson(res, { error: { message, type: 'server_error', code: 'internal' }, code: 500, msg: message, message }, 500);
  }
}
