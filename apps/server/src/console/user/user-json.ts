import type { User } from '@one-hub/contract';
import type { UserRow } from '../../db/repos/users.js';

/**
 * The API's user object (api.md §15.1): password, verification code and access token always blank.
 * The access token is shown only by its owner's GET /api/user/token (issue 35).
 */
export function toUserJson(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    password: '',
    display_name: row.display_name,
    role: row.role,
    status: row.status,
    email: row.email,
    avatar_url: row.avatar_url,
    oidc_id: row.oidc_id,
    github_id: row.github_id,
    github_id_new: row.github_id_new,
    wechat_id: row.wechat_id,
    telegram_id: row.telegram_id,
    lark_id: row.lark_id,
    linuxdo_id: row.linuxdo_id,
    verification_code: '',
    access_token: '',
    quota: row.quota,
    used_quota: row.used_quota,
    request_count: row.request_count,
    group: row.group,
    aff_code: row.aff_code ?? '',
    aff_count: row.aff_count,
    aff_quota: row.aff_quota,
    aff_history_quota: row.aff_history,
    inviter_id: row.inviter_id,
    last_login_time: row.last_login_time,
    last_login_ip: row.last_login_ip,
    created_time: row.created_time,
  };
}

/** Login answer: only identity fields filled, the rest zero-valued (as the original). */
export function toLoginJson(row: UserRow): User {
  const full = toUserJson(row);
  const blank: User = {
    ...full,
    email: '',
    oidc_id: '',
    github_id: '',
    github_id_new: 0,
    wechat_id: '',
    telegram_id: 0,
    lark_id: '',
    access_token: '',
    quota: 0,
    used_quota: 0,
    request_count: 0,
    group: '',
    aff_code: '',
    aff_count: 0,
    aff_quota: 0,
    aff_history_quota: 0,
    inviter_id: 0,
    last_login_time: 0,
    last_login_ip: '',
    created_time: 0,
  };
  return blank;
}
