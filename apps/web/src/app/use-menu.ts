import { useMemo } from 'react';
import { isAdminUser, isRootUser } from '../store/account';
import { useAppSelector } from '../store';
import { buildMenu } from './menu';
import { SCREENS } from './screens';

/** The sidebar menu for the signed-in user and the site's switches. */
export function useMenu() {
  const user = useAppSelector((s) => s.account.user);
  const invoices = useAppSelector((s) => Boolean(s.siteInfo.UserInvoiceMonth));
  const uptime = useAppSelector((s) => Boolean(s.siteInfo.UptimeEnabled));
  const admin = isAdminUser(user);
  const root = isRootUser(user);
  return useMemo(() => buildMenu(SCREENS, admin, { root, site: { UserInvoiceMonth: invoices, UptimeEnabled: uptime } }), [admin, root, invoices, uptime]);
}
