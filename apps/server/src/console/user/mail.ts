import nodemailer from 'nodemailer';
import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';

/** Sends one mail through the SMTP options; a missing SMTP setup is a clear error, not a crash. */
export async function sendMail(ctx: AppContext, to: string, subject: string, html: string): Promise<void> {
  const host = ctx.options.get('SMTPServer');
  if (!host) throw new HubError(400, 'SMTP 服务器未配置 (SMTP server is not configured)');
  const port = ctx.options.get('SMTPPort');
  const transport = nodemailer.createTransport({
    host,
    port,
    secure: port === 465,
    auth: ctx.options.get('SMTPAccount')
      ? { user: ctx.options.get('SMTPAccount'), pass: ctx.options.get('SMTPToken') }
      : undefined,
    connectionTimeout: 10_000,
  });
  const from = ctx.options.get('SMTPFrom') || ctx.options.get('SMTPAccount');
  try {
    await transport.sendMail({ from: `${ctx.options.get('SystemName')} <${from}>`, to, subject, html });
  } catch (error) {
    throw new HubError(502, `邮件发送失败: ${(error as Error).message}`);
  }
}
