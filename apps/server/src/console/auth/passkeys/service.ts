import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AppContext } from '../../../app-context.js';
import { apiError } from '../../../common/errors.js';
import { USER_STATUS } from '../../../http/auth.js';
import { findUserById, findUserByUsername, updateUser, type UserRow } from '../../../db/repos/users.js';
import * as repo from '../../../db/repos/webauthn-credentials.js';
import { signInMethods } from '../../user/binding-service.js';

/** Loaded at the first passkey ceremony (about 4 MB of heap a gateway without passkeys need not hold). */
const webauthn = () => import('@simplewebauthn/server');

/** A ceremony's challenge as the session keeps it; the shared store makes it single-use. */
export interface Ceremony {
  challenge: string;
  at: number;
  userId?: number;
  alias?: string;
}
const CEREMONY_SECONDS = 300;

/** Relying party from ServerAddress, read per request (option changes apply at once). */
function relyingParty(ctx: AppContext) {
  let url: URL;
  try {
    url = new URL(ctx.options.get('ServerAddress'));
  } catch {
    throw apiError(500, 'passkey_config_failed');
  }
  return { rpID: url.hostname, origin: url.origin, rpName: ctx.options.get('SystemName') };
}

/** The session's ceremony, once: a second finish with the same challenge (or an old one) is refused. */
async function takeCeremony(ctx: AppContext, ceremony: Ceremony | undefined): Promise<Ceremony> {
  if (!ceremony?.challenge || Date.now() / 1000 - ceremony.at > CEREMONY_SECONDS) throw apiError(400, 'passkey_session_expired');
  if ((await ctx.store.incrBy(`webauthn_used:${ceremony.challenge}`, 1, CEREMONY_SECONDS)) !== 1) throw apiError(400, 'passkey_session_expired');
  return ceremony;
}

const now = () => Math.floor(Date.now() / 1000);

export async function registrationBegin(ctx: AppContext, user: UserRow, alias: string) {
  const { rpID, rpName } = relyingParty(ctx);
  const existing = await repo.listUserCredentials(ctx.db, user.id);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.username,
    userDisplayName: user.display_name || user.username,
    // The user handle is the user id as a decimal string (api.md §14), so discoverable login finds the user.
    userID: new TextEncoder().encode(String(user.id)),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credential_id })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  return { options: { publicKey: options }, ceremony: { challenge: options.challenge, at: now(), userId: user.id, alias } };
}

export async function registrationFinish(ctx: AppContext, user: UserRow, ceremony: Ceremony | undefined, body: unknown): Promise<void> {
  const c = await takeCeremony(ctx, ceremony);
  if (c.userId !== user.id) throw apiError(400, 'passkey_session_expired');
  const { rpID, origin } = relyingParty(ctx);
  let info;
  try {
    const result = await (await webauthn()).verifyRegistrationResponse({ response: body as RegistrationResponseJSON, expectedChallenge: c.challenge, expectedOrigin: origin, expectedRPID: rpID });
    if (!result.verified) throw new Error('not verified');
    info = result.registrationInfo;
  } catch (e) {
    throw apiError(400, 'passkey_register_failed', { reason: (e as Error).message });
  }
  if (await repo.findCredential(ctx.db, info.credential.id)) throw apiError(400, 'passkey_register_failed', { reason: 'credential already registered' });
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  await repo.insertCredential(ctx.db, {
    user_id: user.id,
    credential_id: info.credential.id,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    attestation_type: info.fmt,
    alias: (c.alias || stamp).slice(0, 255),
    backup_eligible: info.credentialDeviceType === 'multiDevice' ? 1 : 0,
    backup_state: info.credentialBackedUp ? 1 : 0,
    aa_guid: info.aaguid,
    sign_count: info.credential.counter,
    clone_warning: 0,
    attachment: String((body as { authenticatorAttachment?: string }).authenticatorAttachment ?? '').slice(0, 32),
    created_time: now(),
  });
}

/** Options for an assertion: with a user only their credentials, without one a discoverable login. */
async function assertionOptions(ctx: AppContext, userId: number | undefined) {
  const { rpID } = relyingParty(ctx);
  const allow = userId === undefined ? undefined : (await repo.listUserCredentials(ctx.db, userId)).map((c) => ({ id: c.credential_id }));
  const options = await (await webauthn()).generateAuthenticationOptions({ rpID, allowCredentials: allow, userVerification: 'preferred' });
  return { options: { publicKey: options }, ceremony: { challenge: options.challenge, at: now(), userId } };
}

/** Options for a sign-in; with a username only that user's credentials, without one a discoverable login. */
export async function loginBegin(ctx: AppContext, username: string) {
  if (!username) return assertionOptions(ctx, undefined);
  const user = await findUserByUsername(ctx.db, username);
  if (!user) throw apiError(404, 'passkey_login_denied');
  return assertionOptions(ctx, user.id);
}

/** Options for a step-up confirmation by the signed-in user, limited to their own passkeys. */
export async function stepUpBegin(ctx: AppContext, user: UserRow) {
  if (!(await repo.userHasPasskey(ctx.db, user.id))) throw apiError(400, 'passkey_none');
  return assertionOptions(ctx, user.id);
}

/** A step-up assertion: valid, single-use and made with one of this user's passkeys. */
export async function stepUpFinish(ctx: AppContext, ceremony: Ceremony | undefined, body: unknown, user: UserRow): Promise<void> {
  if (ceremony?.userId !== user.id) throw apiError(400, 'passkey_session_expired');
  if ((await verifyAssertion(ctx, ceremony, body)) !== user.id) throw apiError(400, 'passkey_user_unknown');
}

/** Verifies the assertion with the stored key and moves the stored sign counter; answers the credential's user id. */
async function verifyAssertion(ctx: AppContext, ceremony: Ceremony | undefined, body: unknown): Promise<number> {
  const c = await takeCeremony(ctx, ceremony);
  const response = body as AuthenticationResponseJSON;
  const stored = typeof response?.id === 'string' ? await repo.findCredential(ctx.db, response.id) : undefined;
  if (!stored) throw apiError(400, 'passkey_login_failed', { reason: 'unknown credential' });
  const handle = response.response?.userHandle;
  const handleId = handle ? Buffer.from(handle, 'base64url').toString('utf8') : String(stored.user_id);
  if (handleId !== String(stored.user_id) || (c.userId !== undefined && c.userId !== stored.user_id)) {
    throw apiError(400, 'passkey_user_unknown');
  }
  const { rpID, origin } = relyingParty(ctx);
  let newCounter: number;
  try {
    const result = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: c.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: stored.credential_id, publicKey: Buffer.from(stored.public_key ?? '', 'base64url'), counter: stored.sign_count },
    });
    if (!result.verified) throw new Error('not verified');
    newCounter = result.authenticationInfo.newCounter;
  } catch (e) {
    throw apiError(400, 'passkey_login_failed', { reason: (e as Error).message });
  }
  if (!(await repo.advanceCounter(ctx.db, stored.id, newCounter))) throw apiError(400, 'passkey_login_failed', { reason: 'counter did not move' });
  return stored.user_id;
}

/** A passkey sign-in: the verified assertion's user, if enabled. */
export async function loginFinish(ctx: AppContext, ceremony: Ceremony | undefined, body: unknown, ip: string): Promise<UserRow> {
  const user = await findUserById(ctx.db, await verifyAssertion(ctx, ceremony, body));
  if (!user) throw apiError(400, 'passkey_user_unknown');
  if (user.status !== USER_STATUS.enabled) throw apiError(403, 'passkey_login_denied');
  await updateUser(ctx.db, user.id, { last_login_time: now(), last_login_ip: ip });
  return user;
}

export async function listCredentials(ctx: AppContext, user: UserRow) {
  const rows = await repo.listUserCredentials(ctx.db, user.id);
  if (rows.length === 0) return null;
  return rows.map((r) => ({ id: r.id, credential_id: Buffer.from(r.credential_id, 'base64url').toString('base64'), alias: r.alias, created_time: r.created_time }));
}

/** Deletes one of the user's passkeys, unless it is their last one and the last way they can sign in. */
export async function deleteCredential(ctx: AppContext, user: UserRow, id: number): Promise<void> {
  const own = await repo.listUserCredentials(ctx.db, user.id);
  if (!own.some((c) => c.id === id)) throw apiError(404, 'passkey_not_found');
  if (own.length === 1 && (await signInMethods(ctx, user)).every((m) => m === 'passkey')) {
    throw apiError(400, 'last_sign_in_method', undefined, { message: '无法删除：这是您唯一的登录方式，请先设置密码或绑定其他登录方式' });
  }
  if (!(await repo.deleteUserCredential(ctx.db, user.id, id))) throw apiError(404, 'passkey_not_found');
}
