import { lazy } from 'react';
import Icon from '@mui/icons-material/FactCheckOutlined';
import { defineScreens } from '../../lib/screen';

// The audit API answers root only, so the screen and its menu item are root's.
export default defineScreens({
  id: 'audit_log',
  path: '/panel/audit_log',
  layout: 'panel',
  access: 'root',
  menu: { group: 'dashboard', order: 45, icon: Icon },
  page: lazy(() => import('./AuditLogPage')),
});
