import type { AppContext } from '../../app-context.js';
import { sendMail } from '../../console/user/mail.js';
import type { Target } from '../types.js';

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Mail through the SMTP options to NOTIFY_EMAIL_SMTP_TO, else to the root account's address. */
export function emailTarget(ctx: AppContext, rootEmail: () => Promise<string>): Target {
  return {
    name: 'email',
    async send(n) {
      const to = ctx.config.NOTIFY_EMAIL_SMTP_TO || (await rootEmail());
      if (!to) throw new Error('no recipient: set NOTIFY_EMAIL_SMTP_TO or the root e-mail');
      await sendMail(ctx, to, n.title, `<p>${escapeHtml(n.text).replace(/\n/g, '<br>')}</p>`);
    },
  };
}
