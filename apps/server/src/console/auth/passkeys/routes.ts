import type { FastifyInstance } from 'fastify';
import { IdParam, PasskeyLoginBody, PasskeyRegisterBody, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../../app-context.js';
import { requireRole } from '../../../http/auth.js';
import { ok } from '../../../http/envelope.js';
import { criticalLimiter } from '../../../http/rate-limit.js';
import { writeLoginSession, writeSession } from '../../../http/session.js';
import { parse } from '../../../http/validate.js';
import { toLoginJson } from '../../user/user-json.js';
import * as passkeys from './service.js';
import { requireFactorChange } from '../step-up/service.js';

/** WebAuthn passkeys (api.md §14). The ceremony rides in the signed session; the store makes it single-use. */
export function registerPasskeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const critical = criticalLimiter(ctx);
  const user = requireRole(ctx, ROLE.common);
  // Adding or removing a passkey: a console session with a fresh step-up when the user has a factor.
  // The finish needs no second check: it only completes the ceremony a guarded begin put in the session.
  const factorChange = [user, requireFactorChange(ctx)];

  app.post('/webauthn/registration/begin', { preHandler: factorChange }, async (req, reply) => {
    const body = parse(PasskeyRegisterBody, req.body ?? undefined);
    const { options, ceremony } = await passkeys.registrationBegin(ctx, req.user!, body?.alias ?? '');
    writeSession(reply, { ...req.session, webauthn_registration: ceremony });
    return ok(options);
  });
  app.post('/webauthn/registration/finish', { preHandler: user }, async (req, reply) => {
    const { webauthn_registration: ceremony, ...rest } = req.session;
    writeSession(reply, rest);
    await passkeys.registrationFinish(ctx, req.user!, ceremony as passkeys.Ceremony | undefined, req.body);
    return ok(undefined, 'WebAuthn注册成功');
  });
  app.post('/webauthn/login/begin', { preHandler: critical }, async (req, reply) => {
    const { options, ceremony } = await passkeys.loginBegin(ctx, parse(PasskeyLoginBody, req.body).username);
    writeSession(reply, { ...req.session, webauthn_login: ceremony });
    return ok(options);
  });
  app.post('/webauthn/login/finish', { preHandler: critical }, async (req, reply) => {
    const { webauthn_login: ceremony, ...rest } = req.session;
    writeSession(reply, rest);
    const row = await passkeys.loginFinish(ctx, ceremony as passkeys.Ceremony | undefined, req.body, req.ip);
    writeLoginSession(reply, row);
    return ok(toLoginJson(row));
  });
  app.get('/webauthn/credentials', { preHandler: user }, async (req) => ok(await passkeys.listCredentials(ctx, req.user!)));
  app.delete('/webauthn/credentials/:id', { preHandler: factorChange }, async (req) => {
    await passkeys.deleteCredential(ctx, req.user!, parse(IdParam, req.params).id);
    return ok(undefined, '凭据删除成功');
  });
}
