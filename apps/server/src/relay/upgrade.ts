import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** One `upgrade` listener for every WebSocket path; a handshake on any other path is dropped. */
export function dispatchUpgrades(app: FastifyInstance, handlers: Record<string, UpgradeHandler>): void {
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/\/+$/, '');
    const handler = Object.hasOwn(handlers, path) ? handlers[path] : undefined;
    if (handler) handler(req, socket, head);
    else socket.destroy();
  });
}
