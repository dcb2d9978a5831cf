import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ERRORS, isApiErrorCode } from '@one-hub/contract';
import { ApiClient, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { HubError } from '../../src/common/errors.js';
import { consoleFailure } from '../../src/http/errors.js';

/**
 * Issue 38 point 2: every `/api` failure carries a listed code (with its arguments, and a refused
 * body's fields), beside the `message` old clients read, unchanged; the relay doors keep their shapes.
 */
describe.each(testDialects())('console failure codes on %s', (dialect) => {
  let f: RelayFixture;
  const anon = () => new ApiClient(f.server.app);
  const listed = (body: { code?: unknown }) => expect(isApiErrorCode(body.code), JSON.stringify(body)).toBe(true);

  beforeAll(async () => {
    f = await relayFixture(dialect, { CRITICAL_RATE_LIMIT: '0' });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('answers a wrong password with login_failed and the message as before', async () => {
    const res = await anon().post('/api/user/login', { username: 'root', password: 'not-the-password' });
    expect([res.status, res.body]).toEqual([401, { success: false, message: '用户名或密码错误，或用户已被封禁', code: 'login_failed' }]);
  });

  it('answers a duplicate group with group_exists and the symbol as its argument, at the symbol field', async () => {
    const res = await f.root.post('/api/user_group/', { symbol: 'vip', name: 'again', ratio: 1, public: true });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, message: '分组标识 vip 已存在', code: 'group_exists', args: { name: 'vip' }, fields: [{ path: 'symbol' }] });
  });

  it('answers a refused body with invalid_parameter and every field with its path, code and bound', async () => {
    const res = await anon().post('/api/user/register', { username: 'ab', password: 'short' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_parameter', message: 'username: username must be at least 3 characters', args: { field: 'username' } });
    expect(res.body.fields).toEqual([
      { path: 'username', code: 'too_short', args: { minimum: 3 }, message: 'username must be at least 3 characters' },
      { path: 'password', code: 'too_short', args: { minimum: 8 }, message: 'password must be at least 8 characters' },
    ]);
  });

  it('answers OAuth callback failures with their codes: a missing code at its field, a provider switched off, a foreign state', async () => {
    const missing = await anon().get('/api/oauth/github?state=abc');
    expect([missing.status, missing.body.code, missing.body.message]).toEqual([400, 'invalid_parameter', 'code: 无效的参数']);
    expect(missing.body.fields).toEqual([{ path: 'code', code: 'required', message: '无效的参数' }]);
    const empty = await anon().get('/api/oauth/github?code=&state=abc');
    expect(empty.body.fields).toEqual([{ path: 'code', code: 'required', message: '无效的参数' }]);

    const visitor = anon();
    const state = (await visitor.get('/api/oauth/state')).body.data as string;
    const off = await visitor.get(`/api/oauth/github?code=abc&state=${state}`);
    expect([off.status, off.body.code, off.body.args]).toEqual([403, 'oauth_disabled', { provider: 'GitHub' }]);
    expect(off.body.message).toBe('管理员未开启通过 GitHub 登录以及注册');
    const foreign = await anon().get('/api/oauth/github?code=abc&state=abc');
    expect([foreign.status, foreign.body.code, foreign.body.message]).toEqual([403, 'oauth_state', 'state is empty or not same']);
  });

  it('answers a failure its thrower named no listed code for with the generic code of its status, and an unknown path with api_route_not_found', async () => {
    const { client } = await f.newUser();
    const gone = await client.get('/api/token/999999');
    expect([gone.status, gone.body.code]).toEqual([404, 'token_not_found']);
    const nowhere = await client.get('/api/no/such/path');
    expect([nowhere.status, nowhere.body]).toEqual([404, { success: false, message: 'API route not found: GET /api/no/such/path', code: 'api_route_not_found', args: { method: 'GET', path: '/api/no/such/path' } }]);
    for (const [status, code] of [[413, 'payload_too_large'], [409, 'conflict'], [502, 'upstream_failed'], [500, 'internal_error'], [418, 'bad_request']] as const) {
      const answer = consoleFailure(new HubError(status, 'x', { code: 'FST_SOMETHING_UNLISTED' }));
      expect(answer.code).toBe(code);
      expect(Object.keys(API_ERRORS)).toContain(answer.code);
    }
    listed((await client.put('/api/user/self', { password: 'new-password-1' })).body);
  });

  it('answers payment and plan failures with their own codes, the message as before', async () => {
    const gateway = await f.root.get('/api/payment/999999');
    expect([gateway.status, gateway.body]).toEqual([404, { success: false, message: 'payment not found', code: 'payment_not_found' }]);
    const plan = await f.root.get('/api/plan/999999');
    expect([plan.status, plan.body]).toEqual([404, { success: false, message: 'plan not found', code: 'plan_not_found' }]);
    const { client } = await f.newUser();
    const buy = await client.post('/api/plan/buy', { plan_id: 999999, uuid: 'no-such-gateway' });
    expect([buy.status, buy.body.code, buy.body.message]).toEqual([404, 'plan_not_found', 'plan not found']);
  });

  it('answers price failures with their own codes, the message as before', async () => {
    const gone = await f.root.delete('/api/prices/single/no-such-priced-model');
    expect([gone.status, gone.body]).toEqual([404, { success: false, message: 'model not found', code: 'price_not_found' }]);
    const old = await f.root.get('/api/prices?type=old');
    expect([old.status, old.body.code, old.body.message]).toEqual([400, 'pricing_data_missing', 'pricing data not found']);
  });

  it('answers setting and monthly-bill failures with their own codes and arguments, the message as before', async () => {
    const bad = await f.root.put('/api/option/', { key: 'RetryTimes', value: 'many' });
    expect([bad.status, bad.body]).toEqual([400, { success: false, message: 'RetryTimes must be an integer', code: 'option_invalid', args: { key: 'RetryTimes', detail: 'RetryTimes must be an integer' } }]);
    const needs = await f.root.put('/api/option/', { key: 'WeChatAuthEnabled', value: 'true' });
    expect([needs.status, needs.body.code, needs.body.args, needs.body.message]).toEqual([400, 'option_needs_config', { key: 'WeChatAuthEnabled', needs: 'WeChatServerAddress' }, '无法启用微信登录，请先填入微信登录相关配置信息！']);
    const current = await f.root.post('/api/option/invoice/gen/2999-01-15');
    expect([current.status, current.body.code, current.body.message]).toEqual([400, 'invoice_month_invalid', 'invoice time cannot be later than or equal to current month']);
  });

  it('answers mail, OIDC, WeChat, Telegram-menu and step-up failures with their own codes, the message as before', async () => {
    const mail = await anon().get('/api/verification?email=someone@example.com');
    expect([mail.status, mail.body.code, mail.body.message]).toEqual([400, 'smtp_unconfigured', 'SMTP 服务器未配置 (SMTP server is not configured)']);
    const oidc = await anon().get('/api/oauth/endpoint');
    expect([oidc.status, oidc.body]).toEqual([403, { success: false, message: '管理员未开启通过OIDC登录', code: 'oidc_disabled' }]);
    const { client } = await f.newUser();
    const wechat = await client.get('/api/oauth/wechat/bind?code=123456');
    expect([wechat.status, wechat.body.code, wechat.body.message]).toEqual([403, 'wechat_disabled', '管理员未开启通过微信登录以及注册']);
    const menu = await f.root.get('/api/option/telegram/999999');
    expect([menu.status, menu.body]).toEqual([404, { success: false, message: 'menu not found', code: 'telegram_menu_not_found' }]);
    const token = (await client.get('/api/user/token')).body.data as string;
    const stepUp = await anon().post('/api/user/step_up', { code: '123456' }, { authorization: `Bearer ${token}` });
    expect([stepUp.status, stepUp.body.code, stepUp.body.message]).toEqual([400, 'step_up_console_only', '请在控制台登录后确认身份']);
  });

  it('answers a refused sort column and a peer admin read with their own codes, the message as before', async () => {
    const { client } = await f.newUser();
    const sorted = await client.get('/api/log/self?order=-password');
    expect([sorted.status, sorted.body]).toEqual([400, { success: false, message: "不允许对字段 'password' 进行排序", code: 'sort_field_invalid', args: { column: 'password' } }]);
    const admin = await f.newUser();
    await f.server.ctx.db.updateTable('users').set({ role: 10 }).where('id', '=', admin.userId).execute();
    const peer = await f.newUser();
    await f.server.ctx.db.updateTable('users').set({ role: 10 }).where('id', '=', peer.userId).execute();
    const read = await admin.client.get(`/api/user/${peer.userId}`);
    expect([read.status, read.body]).toEqual([403, { success: false, message: '无权获取同级或更高等级用户的信息', code: 'user_rank_read_forbidden' }]);
  });

  it('answers task and Uptime Kuma failures with their own codes, the message as before', async () => {
    const { client } = await f.newUser();
    const task = await client.get('/api/task/999999/content');
    expect([task.status, task.body]).toEqual([404, { success: false, message: 'task not found', code: 'task_not_found' }]);
    const kuma = await client.get('/api/user/dashboard/uptimekuma/status-page');
    expect([kuma.status, kuma.body.code, kuma.body.message]).toEqual([503, 'uptime_kuma_unconfigured', 'Uptime Kuma is not configured']);
  });

  it('answers an unknown group in a user edit with user_group_unknown at the group field, the message as before', async () => {
    const { userId } = await f.newUser();
    const res = await f.root.put('/api/user/', { id: userId, group: 'no-such-group' });
    expect([res.status, res.body.code, res.body.args, res.body.message]).toEqual([400, 'user_group_unknown', { group: 'no-such-group' }, 'group: unknown group no-such-group']);
    expect(res.body.fields).toEqual([{ path: 'group', code: 'invalid_value', message: 'unknown group no-such-group' }]);
  });

  it('answers a status-only token update without a status as invalid_parameter at the status field', async () => {
    const { client, tokenId } = await f.newUser();
    const res = await client.put('/api/token/?status_only=true', { id: tokenId });
    expect([res.status, res.body.code, res.body.args, res.body.message]).toEqual([400, 'invalid_parameter', { field: 'status', detail: 'required' }, 'status: required']);
    expect(res.body.fields).toEqual([{ path: 'status', code: 'required', message: 'required' }]);
  });

  it('keeps the relay door in the OpenAI shape when no channel serves the model in the group, with a stable code', async () => {
    await f.addChannel({ models: 'vip-only-model', group: 'vip' });
    const { key } = await f.newUser();
    const res = await f.server.app.inject({ method: 'POST', url: '/v1/chat/completions', headers: { authorization: `Bearer ${key}` }, payload: { model: 'vip-only-model', messages: [{ role: 'user', content: 'hi' }] } });
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toMatchObject({ code: 'model_not_found', type: 'one_hub_error' });
    expect(body.error.message).toMatch(/^当前分组 default 下对于模型 vip-only-model 无可用渠道 \(request id: /);
  });
});
