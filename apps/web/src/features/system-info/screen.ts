import { lazy } from 'react';
import Icon from '@mui/icons-material/TerminalOutlined';
import { defineScreens } from '../../lib/screen';

// The log API answers root only, so the screen and its menu item are root's (docs/decisions/0057-system-info-screen-is-root-s.md).
export default defineScreens({
  id: 'system_info',
  path: '/panel/system_info',
  layout: 'panel',
  access: 'root',
  menu: { group: 'dashboard', order: 40, icon: Icon },
  page: lazy(() => import('./SystemInfoPage')),
});
