import type { FastifyInstance, FastifyReply } from 'fastify';
import { OAuthCallbackQuery, WeChatBindQuery } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { optionalUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { criticalLimiter } from '../../http/rate-limit.js';
import { writeLoginSession } from '../../http/session.js';
import { parse } from '../../http/validate.js';
import { toLoginJson } from '../user/user-json.js';
import { OAUTH_PROVIDERS, type OAuthProviderId } from './oauth/index.js';
import { issueState, takeState } from './state.js';
import type { Resolution } from './resolver.js';
import * as service from './service.js';
import { oidcCallback, oidcEndpoint } from './oidc-service.js';

/** A bind answers `message: "bind"`; a sign-in starts the session and answers the login user. */
function answer(reply: FastifyReply, result: Resolution) {
  if (result.kind === 'bind') return ok(undefined, 'bind');
  writeLoginSession(reply, result.user);
  return ok(toLoginJson(result.user));
}

/** Third-party sign-in (api.md §13). */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const critical = criticalLimiter(ctx);

  app.get('/oauth/state', { preHandler: critical }, async (req, reply) => ok(issueState(req, reply)));

  for (const id of Object.keys(OAUTH_PROVIDERS) as OAuthProviderId[]) {
    app.get(`/oauth/${id}`, { preHandler: critical }, async (req, reply) => {
      const q = parse(OAuthCallbackQuery, req.query);
      await takeState(ctx, req, reply, q.state);
      const current = await optionalUser(ctx, req);
      const result = await service.oauthCallback(ctx, id, { code: q.code, aff: q.aff, current, ip: req.ip });
      return answer(reply, result);
    });
  }

  app.get('/oauth/endpoint', { preHandler: critical }, async (req, reply) => ok(await oidcEndpoint(ctx, issueState(req, reply))));
  app.get('/oauth/oidc', { preHandler: critical }, async (req, reply) => {
    const q = parse(OAuthCallbackQuery, req.query);
    await takeState(ctx, req, reply, q.state);
    const current = await optionalUser(ctx, req);
    const result = await oidcCallback(ctx, req.query as Record<string, string>, q.state!, { aff: q.aff, current, ip: req.ip });
    return answer(reply, result);
  });

  app.get('/oauth/wechat', { preHandler: critical }, async (req, reply) => {
    const user = await service.wechatLogin(ctx, parse(WeChatBindQuery, req.query).code, req.ip);
    writeLoginSession(reply, user);
    return ok(toLoginJson(user));
  });
}
