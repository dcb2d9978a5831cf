import { z } from 'zod';
import { text } from './format/text.js';
import { isHttpUrl } from './format/net.js';
import { V } from './format/validation.js';
import { ChannelBody } from './channel.js';
import { Password, Username } from './user.js';

/**
 * The guarded first run (issue 39 point 3): with no root user and no INITIAL_ROOT_PASSWORD, the
 * server prints a one-time link `/setup?token=…`; these are the payloads of `GET` and `POST /api/setup`.
 */
export const SETUP_TOKEN_MAX = 200;
/** How long a printed setup link stays valid, unless used first. */
export const SETUP_TOKEN_TTL_SECONDS = 3600;

const SetupToken = text().trim().min(1, 'token is required').max(SETUP_TOKEN_MAX, 'token is too long');

export const SetupTokenQuery = z.object({ token: SetupToken });

const HttpUrl = text()
  .trim()
  .max(500)
  .refine((u) => isHttpUrl(u), 'server_address must be an http(s) URL')
  .transform((u) => u.replace(/\/+$/, ''));

/** The optional first channel: a type, its key, an optional base URL and the models it serves. */
export const SetupChannel = ChannelBody.pick({ type: true, key: true, base_url: true, models: true }).refine((c) => !c.key.includes('\n'), {
  message: 'key: one key only (add more channels later in the console)',
  path: ['key'],
});

export const SetupBody = z.object({
  token: SetupToken,
  username: Username,
  password: Password,
  system_name: text().trim().min(1, 'system_name cannot be empty').max(100, 'system_name must be at most 100 characters'),
  server_address: HttpUrl,
  channel: SetupChannel.optional(),
});

/** What the channel test of a setup answered (the setup itself stands either way). */
export interface SetupChannelResult {
  id: number;
  success: boolean;
  message: string;
  /** Seconds the test took. */
  time: number;
}

/** `POST /api/setup` data on success. */
export interface SetupResult {
  username: string;
  channel?: SetupChannelResult;
}

/** The console's setup form (console-spec §5 messages): password twice, the channel part only when asked for. */
export const SetupForm = z
  .object({
    username: text().trim().min(3, V.tooShort).max(12, V.tooLong),
    password: text().min(8, V.tooShort).max(20, V.tooLong),
    password2: text().min(1, V.required),
    system_name: text().trim().min(1, V.required).max(100, V.tooLong),
    server_address: text().trim().min(1, V.required).refine((u) => isHttpUrl(u), V.url),
    with_channel: z.boolean(),
    channel_type: z.number().int().min(0),
    channel_key: text().trim(),
    channel_base_url: text().trim().refine((u) => u === '' || isHttpUrl(u), V.url),
    channel_models: text().trim(),
  })
  .refine((v) => v.password === v.password2, { message: V.match, path: ['password2'] })
  .refine((v) => !v.with_channel || v.channel_key !== '', { message: V.required, path: ['channel_key'] })
  .refine((v) => !v.with_channel || v.channel_models !== '', { message: V.required, path: ['channel_models'] });
