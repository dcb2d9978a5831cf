import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface FakeSmtpOptions {
  /** Implicit TLS from the first byte (port 465 style); otherwise plain until STARTTLS. */
  implicitTls: boolean;
  cert: string;
  key: string;
  user: string;
  pass: string;
}

export interface ReceivedMail {
  to: string[];
  subject: string;
  html: string;
  text: string;
  /** The connection was encrypted (implicit TLS or after STARTTLS) when the mail was sent. */
  secure: boolean;
  /** The account the client authenticated as. */
  user: string | undefined;
}

const refuse = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * A real SMTP server (smtp-server) on loopback that checks what a mail provider checks: TLS
 * before anything else (STARTTLS or implicit), AUTH with the right account, and recipients it
 * accepts (`refused` addresses get 550). Received mails are parsed (mailparser) for the tests.
 */
export class FakeSmtp {
  readonly mails: ReceivedMail[] = [];
  /** Recipients the server answers 550 for. */
  readonly refused = new Set<string>();
  private waiters: Array<{ to: string; resolve: (m: ReceivedMail) => void }> = [];
  private readonly server: SMTPServer;

  constructor(private readonly opts: FakeSmtpOptions) {
    this.server = new SMTPServer({
      secure: opts.implicitTls,
      key: opts.key,
      cert: opts.cert,
      name: 'localhost',
      authMethods: ['PLAIN', 'LOGIN'],
      // AUTH over a plain connection is refused (smtp-server's default), as real providers do.
      allowInsecureAuth: false,
      logger: false,
      onAuth: (auth, _session, done) => {
        if (auth.username === this.opts.user && auth.password === this.opts.pass) done(null, { user: auth.username });
        else done(refuse(535, 'Authentication credentials invalid'));
      },
      onMailFrom: (_address, session, done) => done(this.gate(session)),
      onRcptTo: (address, session, done) => {
        if (this.refused.has(address.address)) return done(refuse(550, `Mailbox unavailable: ${address.address}`));
        done(this.gate(session));
      },
      onData: (stream, session, done) => {
        simpleParser(stream)
          .then((mail) => this.received(mail, session))
          .then(() => done(), done);
      },
    });
  }

  /** Mail is accepted only over TLS from an authenticated client. */
  private gate(session: SMTPServerSession): Error | null | undefined {
    if (!session.secure) return refuse(530, 'Must issue a STARTTLS command first');
    if (!session.user) return refuse(530, 'Authentication required');
    return null;
  }

  private received(mail: ParsedMail, session: SMTPServerSession) {
    const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));
    const entry: ReceivedMail = { to, subject: mail.subject ?? '', html: typeof mail.html === 'string' ? mail.html : '', text: mail.text ?? '', secure: session.secure, user: session.user as string | undefined };
    this.mails.push(entry);
    for (const w of this.waiters.filter((x) => to.includes(x.to))) w.resolve(entry);
    this.waiters = this.waiters.filter((x) => !to.includes(x.to));
  }

  /** The next mail to this address, or one already received since `since` (an index into `mails`). */
  next(to: string, since = this.mails.length): Promise<ReceivedMail> {
    const already = this.mails.slice(since).find((m) => m.to.includes(to));
    if (already) return Promise.resolve(already);
    return new Promise((resolve) => this.waiters.push({ to, resolve }));
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    return (this.server.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
