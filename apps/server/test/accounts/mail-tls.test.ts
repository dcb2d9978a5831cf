import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, redisAvailable, startTestServer, type TestServer } from '../harness.js';
import { FakeSmtp } from '../fakes/smtp.js';
import { makeTestCertificates, type TestCertificates } from '../fakes/tls-cert.js';
import { MAIL_LANGUAGES, MAIL_TEXTS } from '../../src/console/user/mail-texts.js';
import { MAIL_FAILED } from '../../src/console/user/mail.js';

const ACCOUNT = 'hub@mail.example.com';
const PASSWORD = 'app-password-123';
const ACCEPT: Record<(typeof MAIL_LANGUAGES)[number], string> = { zh_CN: 'zh-CN', zh_HK: 'zh-HK', en_US: 'en-US', ja_JP: 'ja' };

describe('account mails over SMTP with TLS (STARTTLS and implicit TLS, AUTH)', () => {
  let certs: TestCertificates;
  let starttls: FakeSmtp;
  let implicit: FakeSmtp;
  const ports = { starttls: 0, implicit: 0 };
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    certs = makeTestCertificates();
    const opts = { cert: certs.cert, key: certs.key, user: ACCOUNT, pass: PASSWORD };
    starttls = new FakeSmtp({ ...opts, implicitTls: false });
    implicit = new FakeSmtp({ ...opts, implicitTls: true });
    ports.starttls = await starttls.start();
    ports.implicit = await implicit.start();
    server = await startTestServer('sqlite', { redis: redisAvailable(), env: { SMTP_CA_FILE: certs.caFile } });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    await setOptions({ SMTPServer: 'localhost', SMTPAccount: ACCOUNT, SMTPToken: PASSWORD, SMTPFrom: 'noreply@mail.example.com', SystemName: 'TLS Hub', EmailVerificationEnabled: 'true', ServerAddress: 'https://hub.example.com' });
  });
  afterAll(async () => {
    await server?.destroy();
    await starttls?.close();
    await implicit?.close();
    certs?.dispose();
  });

  async function setOptions(values: Record<string, string>) {
    for (const [key, value] of Object.entries(values)) expect((await root.put('/api/option/', { key, value })).body.success, key).toBe(true);
  }
  const useStartTls = () => setOptions({ SMTPPort: String(ports.starttls), SMTPSSLEnabled: 'false' });
  const useImplicit = () => setOptions({ SMTPPort: String(ports.implicit), SMTPSSLEnabled: 'true' });
  const codeOf = (html: string) => html.match(/<strong>([0-9a-f]{6})<\/strong>/)?.[1];

  it('mails verification codes in the four languages through STARTTLS, and the code signs up', async () => {
    await useStartTls();
    const anon = new ApiClient(server.app);
    for (const lang of MAIL_LANGUAGES) {
      const to = `new-${lang.toLowerCase()}@example.com`;
      const since = starttls.mails.length;
      const res = await anon.get(`/api/verification?email=${to}`, { 'accept-language': ACCEPT[lang] });
      expect(res.body.success, JSON.stringify(res.body)).toBe(true);
      const mail = await starttls.next(to, since);
      expect(mail).toMatchObject({ secure: true, user: ACCOUNT, subject: MAIL_TEXTS[lang].verifySubject('TLS Hub') });
      const code = codeOf(mail.html)!;
      expect(mail.html.trim()).toBe(MAIL_TEXTS[lang].verifyBody(code));
      if (lang === 'en_US') {
        const reg = await anon.post('/api/user/register', { username: 'tlsuser', password: 'password123', email: to, verification_code: code });
        expect(reg.body.success, JSON.stringify(reg.body)).toBe(true);
      }
    }
    expect(implicit.mails).toHaveLength(0);
  });

  it('mails a password-reset link through implicit TLS, and the link resets the password', async () => {
    await useImplicit();
    const anon = new ApiClient(server.app);
    const since = implicit.mails.length;
    expect((await anon.get('/api/reset_password?email=new-en_us@example.com', { 'accept-language': 'ja' })).body.success).toBe(true);
    const mail = await implicit.next('new-en_us@example.com', since);
    expect(mail).toMatchObject({ secure: true, user: ACCOUNT, subject: MAIL_TEXTS.ja_JP.resetSubject('TLS Hub') });
    const link = new URL(mail.html.match(/href="([^"]+)"/)![1].replaceAll('&amp;', '&'));
    expect(`${link.origin}${link.pathname}`).toBe('https://hub.example.com/user/reset');
    const reset = await anon.post('/api/user/reset', { email: link.searchParams.get('email'), token: link.searchParams.get('token') });
    expect(reset.body.success, JSON.stringify(reset.body)).toBe(true);
    await new ApiClient(server.app).login('tlsuser', reset.body.data);
    // the link works once
    expect((await anon.post('/api/user/reset', { email: link.searchParams.get('email'), token: link.searchParams.get('token') })).body.success).toBe(false);
  });

  it('binds an e-mail with a code mailed over STARTTLS', async () => {
    await useStartTls();
    const me = new ApiClient(server.app);
    // signed up while e-mail verification was off, so without an address
    await server.ctx.options.save({ EmailVerificationEnabled: 'false' });
    expect((await me.post('/api/user/register', { username: 'binder', password: 'password123' })).body.success).toBe(true);
    await server.ctx.options.save({ EmailVerificationEnabled: 'true' });
    await me.login('binder', 'password123');
    const since = starttls.mails.length;
    expect((await me.get('/api/verification?email=binder@example.com', { 'accept-language': 'zh-TW' })).body.success).toBe(true);
    const mail = await starttls.next('binder@example.com', since);
    expect(mail.subject).toBe(MAIL_TEXTS.zh_HK.verifySubject('TLS Hub'));
    const bind = await me.get(`/api/oauth/email/bind?email=binder@example.com&code=${codeOf(mail.html)}`);
    expect(bind.body.success, JSON.stringify(bind.body)).toBe(true);
    expect((await me.get('/api/user/self')).body.data.email).toBe('binder@example.com');
  });

  it('answers a generic error when the server refuses (wrong password, refused recipient, TLS mode mismatch), the cause only logged', async () => {
    const logged = () => server.ctx.recentLogs.last(200).map((l) => l.Message).join('\n');
    const anon = new ApiClient(server.app);
    await useStartTls();
    await setOptions({ SMTPToken: 'wrong-password' });
    const badAuth = await anon.get('/api/verification?email=someone@example.com');
    expect(badAuth.status).toBe(502);
    expect(badAuth.body.success).toBe(false);
    expect(badAuth.body.message).toBe(MAIL_FAILED);
    expect(logged()).toMatch(/mail not sent via .*535/);
    await setOptions({ SMTPToken: PASSWORD });

    starttls.refused.add('bounce@example.com');
    const bounced = await anon.get('/api/verification?email=bounce@example.com');
    expect(bounced.status).toBe(502);
    expect(bounced.body.message).toBe(MAIL_FAILED);
    expect(bounced.body.message).not.toContain('bounce@example.com');
    expect(logged()).toMatch(/mail not sent via .*550/);

    // implicit TLS against a STARTTLS port fails instead of sending in the clear
    await setOptions({ SMTPSSLEnabled: 'true' });
    const mismatch = await anon.get('/api/verification?email=someone@example.com');
    expect(mismatch.status).toBe(502);
    expect(mismatch.body.message).toBe(MAIL_FAILED);
    await useStartTls();
  });

  it('verifies the certificate: without the test CA the mail is refused, never sent', async () => {
    const untrusting = await startTestServer('sqlite');
    try {
      await untrusting.ctx.options.save({ SMTPServer: 'localhost', SMTPPort: String(ports.implicit), SMTPSSLEnabled: 'true', SMTPAccount: ACCOUNT, SMTPToken: PASSWORD });
      const count = implicit.mails.length;
      const res = await new ApiClient(untrusting.app).get('/api/verification?email=someone@example.com');
      expect(res.status).toBe(502);
      expect(res.body.message).toBe(MAIL_FAILED);
      expect(untrusting.ctx.recentLogs.last(200).map((l) => l.Message).join('\n')).toMatch(/mail not sent via localhost: .*certificate/i);
      expect(implicit.mails).toHaveLength(count);
    } finally {
      await untrusting.destroy();
    }
  });
});
