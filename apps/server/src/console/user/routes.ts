import type { FastifyInstance } from 'fastify';
import {
  ChangeQuotaBody,
  EmailBindQuery,
  CreateUserBody,
  EmailQuery,
  IdParam,
  LoginBody,
  ManageUserBody,
  PageQuery,
  RegisterBody,
  ResetPasswordBody,
  ROLE,
  TopupBody,
  UpdateSelfBody,
  UpdateUserBody,
  UnbindBody,
  WeChatBindQuery,
} from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole, sessionUser } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { clearSession, writeLoginSession } from '../../http/session.js';
import { criticalLimiter } from '../../http/rate-limit.js';
import { turnstileCheck } from '../../http/turnstile.js';
import { paginate } from '../../db/paginate.js';
import { USER_ORDER_COLUMNS, userListQuery } from '../../db/repos/users.js';
import * as auth from './auth-service.js';
import { mailLanguage } from './mail-texts.js';
import * as self from './self-service.js';
import * as admin from './admin-service.js';
import * as binding from './binding-service.js';
import { toUserJson } from './user-json.js';
import { withUserBalance, withUserBalances } from './balance.js';
import { finishSignIn } from '../auth/sign-in.js';
import { freshConfirmation, stepUpSatisfied } from '../auth/step-up/service.js';

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  const critical = criticalLimiter(ctx);
  const turnstile = turnstileCheck(ctx);
  const user = requireRole(ctx, ROLE.common);
  const adminOnly = requireRole(ctx, ROLE.admin);

  app.post('/user/login', { preHandler: [critical, turnstile] }, async (req, reply) => {
    const body = parse(LoginBody, req.body);
    const row = await auth.login(ctx, body.username, body.password, req.ip);
    return finishSignIn(ctx, reply, row);
  });
  // Ends every session of the user, so a copy of this cookie taken earlier stops working too.
  app.get('/user/logout', async (req, reply) => {
    const current = await sessionUser(ctx, req);
    if (current) await self.endSessions(ctx, current.id);
    clearSession(reply);
    return ok();
  });
  app.post('/user/register', { preHandler: [critical, turnstile] }, async (req) => {
    await auth.register(ctx, parse(RegisterBody, req.body));
    return ok();
  });
  app.get('/verification', { preHandler: [critical, turnstile] }, async (req) => {
    await auth.sendVerificationCode(ctx, parse(EmailQuery, req.query).email, mailLanguage(req.headers['accept-language'], ctx.config.LANGUAGE));
    return ok();
  });
  app.get('/reset_password', { preHandler: [critical, turnstile] }, async (req) => {
    await auth.sendPasswordResetMail(ctx, parse(EmailQuery, req.query).email, mailLanguage(req.headers['accept-language'], ctx.config.LANGUAGE));
    return ok();
  });
  app.post('/user/reset', { preHandler: critical }, async (req) => {
    const body = parse(ResetPasswordBody, req.body);
    return ok(await auth.resetPassword(ctx, body.email, body.token));
  });

  app.get('/user/self', { preHandler: user }, async (req) => ok(toUserJson(await withUserBalance(ctx, req.user!))));
  app.put('/user/self', { preHandler: user }, async (req, reply) => {
    const body = parse(UpdateSelfBody, req.body);
    const proof = {
      ip: req.ip,
      steppedUp: freshConfirmation(req, req.user!),
      sessionConfirmed: req.authVia === 'session' && (await stepUpSatisfied(ctx, req)),
    };
    const renewed = await self.updateSelf(ctx, req.user!, body, proof);
    // A password change ends the other sessions; this one continues under the new version.
    if (renewed && req.authVia === 'session') writeLoginSession(reply, renewed);
    return ok();
  });
  app.get('/user/token', { preHandler: user }, async (req) => ok(await self.regenerateAccessToken(ctx, req.user!)));
  app.post('/user/unbind', { preHandler: user }, async (req) => {
    await binding.unbind(ctx, req.user!, parse(UnbindBody, req.body).type);
    return ok();
  });
  app.get('/oauth/email/bind', { preHandler: [critical, user] }, async (req) => {
    const q = parse(EmailBindQuery, req.query);
    await binding.bindEmail(ctx, req.user!, q.email, q.code);
    return ok();
  });
  app.get('/oauth/wechat/bind', { preHandler: [critical, user] }, async (req) => {
    await binding.bindWeChat(ctx, req.user!, parse(WeChatBindQuery, req.query).code);
    return ok();
  });
  app.get('/user/aff', { preHandler: user }, async (req) => ok(await self.affCode(ctx, req.user!)));
  app.post('/user/topup', { preHandler: user }, async (req) => {
    return ok(await self.redeem(ctx, req.user!, parse(TopupBody, req.body).key, req.ip));
  });

  app.get('/user/', { preHandler: adminOnly }, async (req) => {
    const q = parse(PageQuery, req.query);
    const page = await paginate(userListQuery(ctx.db, q.keyword), q, USER_ORDER_COLUMNS, toUserJson);
    return ok({ ...page, data: await withUserBalances(ctx, page.data) });
  });
  app.get('/user/:id', { preHandler: adminOnly }, async (req) => {
    return ok(toUserJson(await withUserBalance(ctx, await admin.getUser(ctx, req.user!, parse(IdParam, req.params).id))));
  });
  app.post('/user/', { preHandler: adminOnly }, async (req) => {
    await admin.createUser(ctx, req.user!, parse(CreateUserBody, req.body));
    return ok();
  });
  app.put('/user/', { preHandler: adminOnly }, async (req) => {
    await admin.updateUserByAdmin(ctx, req.user!, parse(UpdateUserBody, req.body));
    return ok();
  });
  app.delete('/user/:id', { preHandler: adminOnly }, async (req) => {
    await admin.deleteUser(ctx, req.user!, parse(IdParam, req.params).id);
    return ok();
  });
  app.post('/user/manage', { preHandler: adminOnly }, async (req) => {
    return ok(await admin.manageUser(ctx, req.user!, parse(ManageUserBody, req.body)));
  });
  app.post('/user/quota/:id', { preHandler: adminOnly }, async (req) => {
    await admin.changeQuota(ctx, req.user!, parse(IdParam, req.params).id, parse(ChangeQuotaBody, req.body), req.ip);
    return ok();
  });
}
