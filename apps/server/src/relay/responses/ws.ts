import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WebSocketServer } from 'ws';
import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { randomAlnum } from '../../common/random.js';
import { authenticate } from '../pipeline/flow/caller.js';
import { relayState } from '../state.js';
import { refuse } from '../realtime/index.js';
import type { UpgradeHandler } from '../upgrade.js';
import { doorHeaders, runThroughDoor } from './ws-door.js';
import { runResponsesSession } from './ws-session.js';

/**
 * `GET /v1/responses` with `Upgrade: websocket` (Responses WebSocket mode): the token is checked
 * before the upgrade completes; every `response.create` then runs through the HTTP door.
 */
export function registerResponsesWebSocket(app: FastifyInstance, ctx: AppContext): UpgradeHandler {
  // Frames are bounded like the HTTP door's bodies.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  app.addHook('preClose', async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
  return (req, socket, head) => {
    const requestId = `${Date.now().toString(36)}${randomAlnum(6)}`;
    if (!ctx.options.get('ResponsesWebSocketEnabled')) {
      return refuse(socket, new HubError(426, 'Responses WebSocket mode is turned off on this gateway: use POST /v1/responses', { code: 'upgrade_required' }), requestId);
    }
    const state = relayState(ctx);
    const remoteAddress = req.socket.remoteAddress ?? '';
    const handshake = { headers: req.headers, query: {}, ip: remoteAddress } as unknown as FastifyRequest;
    authenticate(state.ctx, state.callers, handshake).then(
      () => {
        if (socket.destroyed) return;
        const headers = doorHeaders(req.headers);
        wss.handleUpgrade(req, socket, head, (ws) =>
          runResponsesSession(ws, {
            run: (body, out, signal) => runThroughDoor(app, { headers, remoteAddress, body }, out, signal),
            idleMs: () => ctx.options.get('ResponsesWebSocketIdleSeconds') * 1000,
            onFailure: (error) => ctx.log.error({ err: error }, 'responses websocket turn failed'),
          }),
        );
      },
      (error) => refuse(socket, error, requestId),
    );
  };
}
