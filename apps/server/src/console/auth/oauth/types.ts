import type { Config } from '../../../config/env.js';

/** What a sign-in provider proves about the person at the other end. */
export interface OAuthProfile {
  /** The provider's stable account id. */
  id: string;
  /** The provider's login name, the preferred local username. */
  login: string;
  name: string;
  /** '' when the provider gave none. */
  email: string;
  /** True only when the provider vouches that the address belongs to this account. */
  verified: boolean;
  avatar: string;
  /** GitHub only: the numeric id (`github_id_new`); `id` holds the login there, as the original. */
  numericId?: number;
  /** LINUX DO only: forum trust level (0–4) and whether the account is active and not silenced. */
  trustLevel?: number;
  active?: boolean;
}

export interface OAuthCredentials {
  clientId: string;
  clientSecret: string;
}

/** One provider: exchanges an authorization code for a profile. Pure apart from its HTTP calls. */
export interface OAuthProvider {
  exchange(config: Config, creds: OAuthCredentials, code: string): Promise<OAuthProfile>;
}

/** A provider's refusal or an unreachable provider; the service turns it into the user-facing message. */
export class OAuthError extends Error {
  constructor(
    message: string,
    readonly unreachable = false,
  ) {
    super(message);
  }
}
