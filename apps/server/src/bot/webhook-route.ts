import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { botOf } from './registry.js';

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * POST /api/telegram/:token (api.md §28): an update reaches the bot only when the bot runs in
 * webhook mode and both the path token and Telegram's secret header match; anything else is the
 * plain-text 404, answered before the body is even parsed.
 */
export function registerTelegramWebhook(app: FastifyInstance, ctx: AppContext): void {
  const guard = async (req: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const bot = botOf(ctx);
    const header = req.headers[SECRET_HEADER];
    if (!bot?.acceptsWebhook(req.params.token, typeof header === 'string' ? header : undefined)) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Page not found');
    }
  };
  app.post<{ Params: { token: string } }>('/telegram/:token', { onRequest: guard }, async (req, reply) => {
    const update = req.body as { update_id?: unknown } | undefined;
    // Telegram resends an update until it gets a 2xx, so a malformed one is acknowledged and dropped.
    if (update && typeof update === 'object' && Number.isInteger(update.update_id)) await botOf(ctx)?.handleWebhook(update);
    else ctx.log.warn('telegram webhook: malformed update dropped');
    return reply.code(200).send({});
  });
}
