/** api.md §2: stored numeric codes. */
export const ROLE = { guest: 0, common: 1, reliable: 3, admin: 10, root: 100 } as const;
export const USER_STATUS = { enabled: 1, disabled: 2 } as const;
export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;
export const CHANNEL_STATUS = { unknown: 0, enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const;
export const REDEMPTION_STATUS = { unused: 1, disabled: 2, used: 3 } as const;
/** `error` (5): a failed relay attempt with the upstream's full text; admins only (never in a user's own log list). */
export const LOG_TYPE = { unknown: 0, topup: 1, consume: 2, manage: 3, system: 4, error: 5 } as const;
