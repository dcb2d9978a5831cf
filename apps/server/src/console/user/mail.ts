import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { failureText, smtpTransport } from '../../egress/outbound.js';

const trusted = new Map<string, string[]>();

/** The system CAs plus those of SMTP_CA_FILE (read once); undefined keeps Node's defaults. */
function trustedCas(file: string): string[] | undefined {
  if (!file) return undefined;
  let cas = trusted.get(file);
  if (!cas) {
    try {
      cas = [...rootCertificates, readFileSync(file, 'utf8')];
    } catch (error) {
      throw apiError(500, 'smtp_ca_unreadable', { detail: (error as Error).message });
    }
    trusted.set(file, cas);
  }
  return cas;
}

/**
 * How to reach the SMTP server: implicit TLS on port 465 or with SMTPSSLEnabled, else STARTTLS
 * (required once credentials are sent, so a stripped STARTTLS cannot expose the password). The
 * certificate is always verified, against the system CAs and SMTP_CA_FILE.
 */
export function transportOptions(ctx: AppContext) {
  const port = ctx.options.get('SMTPPort');
  const user = ctx.options.get('SMTPAccount');
  return {
    host: ctx.options.get('SMTPServer'),
    port,
    secure: port === 465 || ctx.options.get('SMTPSSLEnabled'),
    requireTLS: Boolean(user),
    auth: user ? { user, pass: ctx.options.get('SMTPToken') } : undefined,
    tls: { ca: trustedCas(ctx.config.SMTP_CA_FILE) },
    connectionTimeout: 10_000,
  };
}

export const MAIL_FAILED = '邮件发送失败，请稍后重试或联系管理员 (mail could not be sent)';

/**
 * Sends one mail through the SMTP options; a missing SMTP setup or a refused delivery is a clear
 * error. The SMTP server's address and answer are logged, never shown (anonymous callers send mail).
 */
export async function sendMail(ctx: AppContext, to: string, subject: string, html: string): Promise<void> {
  if (!ctx.options.get('SMTPServer')) throw apiError(400, 'smtp_unconfigured');
  const transport = smtpTransport(transportOptions(ctx));
  const from = ctx.options.get('SMTPFrom') || ctx.options.get('SMTPAccount');
  try {
    await transport.sendMail({ from: `${ctx.options.get('SystemName')} <${from}>`, to, subject, html });
  } catch (error) {
    ctx.log.warn(`mail not sent via ${ctx.options.get('SMTPServer')}: ${failureText(error)}`);
    throw apiError(502, 'mail_failed', undefined, { message: MAIL_FAILED });
  } finally {
    transport.close();
  }
}
