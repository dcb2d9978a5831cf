import { createServer, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/**
 * A minimal plain-text SMTP server (no TLS, no auth) that keeps every message it
 * receives, so mail flows can be tested end to end through nodemailer.
 */
export class FakeSmtp {
  readonly mails: ReceivedMail[] = [];
  /** TCP connections accepted (egress tests prove none was made). */
  connections = 0;
  private server: Server = createServer((socket) => this.session(socket));

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return address.port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The last mail sent to an address, decoded enough to search its text. */
  lastTo(address: string): string | undefined {
    const mail = [...this.mails].reverse().find((m) => m.to.some((t) => t.includes(address)));
    return mail && decodeBody(mail.data);
  }

  private session(socket: Socket) {
    this.connections++;
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake-smtp ready');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            this.mails.push(current);
            current = { from: '', to: [], data: '' };
            reply('250 queued');
          } else {
            current.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fake-smtp');
        else if (verb === 'MAIL') (current.from = line.slice(10)), reply('250 ok');
        else if (verb === 'RCPT') current.to.push(line.slice(8)), reply('250 ok');
        else if (verb === 'DATA') (inData = true), reply('354 go ahead');
        else if (verb === 'QUIT') reply('221 bye'), socket.end();
        else reply('250 ok');
      }
    });
    socket.on('error', () => socket.destroy());
  }
}

/** Undoes quoted-printable soft breaks and escapes, which nodemailer uses for HTML bodies. */
function decodeBody(data: string): string {
  // Mostly non-ASCII text (Japanese, Chinese) arrives base64-encoded: decode those bodies in place.
  data = data.replace(/Content-Transfer-Encoding: base64\r?\n((?:[^\r\n]+\r?\n)*)\r?\n([A-Za-z0-9+/=\r\n]+)/gi, (_m, headers: string, body: string) =>
    `${headers}\n${Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('latin1')}`,
  );
  const joined = data.replace(/=\n/g, '');
  return Buffer.from(joined.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString(
    'utf8',
  );
}
