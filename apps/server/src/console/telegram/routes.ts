import type { FastifyInstance } from 'fastify';
import { IdParam, PageQuery, ROLE, TelegramMenuBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { TELEGRAM_MENU_ORDER_COLUMNS, telegramMenuListQuery } from '../../db/repos/telegram-menus.js';
import * as service from './service.js';

/** Telegram bot menus (api.md §27): root only, like every /api/option route. */
export function registerTelegramRoutes(app: FastifyInstance, ctx: AppContext): void {
  const root = requireRole(ctx, ROLE.root);
  app.get('/option/telegram/', { preHandler: root }, async (req) => {
    const q = parse(PageQuery, req.query);
    return ok(await paginate(telegramMenuListQuery(ctx.db, q.keyword), q, TELEGRAM_MENU_ORDER_COLUMNS, service.toTelegramMenuJson));
  });
  app.get('/option/telegram/status', { preHandler: root }, async () => ok(service.botStatus(ctx)));
  app.put('/option/telegram/reload', { preHandler: root }, async () => ok(undefined, await service.reloadBot(ctx)));
  app.get('/option/telegram/:id', { preHandler: root }, async (req) => ok(await service.getTelegramMenu(ctx, parse(IdParam, req.params).id)));
  app.post('/option/telegram/', { preHandler: root }, async (req) => ok(undefined, await service.saveTelegramMenu(ctx, parse(TelegramMenuBody, req.body))));
  app.delete('/option/telegram/:id', { preHandler: root }, async (req) => {
    await service.removeTelegramMenu(ctx, parse(IdParam, req.params).id);
    return ok(undefined, '删除成功');
  });
}
