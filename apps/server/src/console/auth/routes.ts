import type { FastifyInstance, FastifyReply } from 'fastify';
import { IdParam, OAuthCallbackQuery, ROLE, TwoFactorCodeBody, WeChatBindQuery } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { optionalUser, requireRole } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { criticalLimiter } from '../../http/rate-limit.js';
import { parse } from '../../http/validate.js';
import { OAUTH_PROVIDERS, type OAuthProviderId } from './oauth/index.js';
import { issueState, takeState } from './state.js';
import type { Resolution } from './resolver.js';
import { finishSignIn, secondFactor } from './sign-in.js';
import * as twoFactor from './two-factor/service.js';
import * as service from './service.js';
import { oidcCallback, oidcEndpoint } from './oidc-service.js';
import { registerStepUpRoutes } from './step-up/routes.js';
import { assertStepUp, requireFactorChange } from './step-up/service.js';
import { apiError } from '../../common/errors.js';

/** A bind answers `message: "bind"`; a sign-in goes on to the session (or the second factor). */
function answer(ctx: AppContext, reply: FastifyReply, result: Resolution) {
  if (result.kind === 'bind') return ok(undefined, 'bind');
  return finishSignIn(ctx, reply, result.user);
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
      return answer(ctx, reply, result);
    });
  }

  app.get('/oauth/endpoint', { preHandler: critical }, async (req, reply) => ok(await oidcEndpoint(ctx, issueState(req, reply))));
  app.get('/oauth/oidc', { preHandler: critical }, async (req, reply) => {
    const q = parse(OAuthCallbackQuery, req.query);
    await takeState(ctx, req, reply, q.state);
    const current = await optionalUser(ctx, req);
    const result = await oidcCallback(ctx, req.query as Record<string, string>, q.state!, { aff: q.aff, current, ip: req.ip });
    return answer(ctx, reply, result);
  });

  app.get('/oauth/wechat', { preHandler: critical }, async (req, reply) => {
    const user = await service.wechatLogin(ctx, parse(WeChatBindQuery, req.query).code, req.ip);
    return finishSignIn(ctx, reply, user);
  });

  registerStepUpRoutes(app, ctx);
  const user = requireRole(ctx, ROLE.common);
  const factorChange = [user, requireFactorChange(ctx)];
  app.post('/user/login/2fa', { preHandler: critical }, async (req, reply) => {
    return secondFactor(ctx, req, reply, parse(TwoFactorCodeBody, req.body).code);
  });
  app.get('/user/2fa', { preHandler: user }, async (req) => ok(await twoFactor.twoFactorStatus(ctx, req.user!)));
  app.post('/user/2fa/setup', { preHandler: factorChange }, async (req) => ok(await twoFactor.beginSetup(ctx, req.user!)));
  app.post('/user/2fa/enable', { preHandler: factorChange }, async (req) => {
    return ok(await twoFactor.enable(ctx, req.user!, parse(TwoFactorCodeBody, req.body).code));
  });
  // The code it takes is the confirmation (counted against the account's wrong-code limit).
  app.post('/user/2fa/disable', { preHandler: user }, async (req) => {
    await twoFactor.disable(ctx, req.user!, parse(TwoFactorCodeBody, req.body).code);
    return ok();
  });
  app.delete('/user/2fa/:id', { preHandler: requireRole(ctx, ROLE.admin) }, async (req) => {
    const id = parse(IdParam, req.params).id;
    // The own id is refused before any step-up: the self path (disable with a code) is the way.
    if (id === req.user!.id) throw apiError(400, 'two_factor_reset_self');
    await assertStepUp(ctx, req);
    await twoFactor.adminReset(ctx, req.user!, id);
    return ok();
  });
}
