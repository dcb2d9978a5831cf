import { lazy } from 'react';
import Icon from '@mui/icons-material/WorkspacesOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'user_group',
  path: '/panel/user_group',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', parent: 'operation', order: 10, icon: Icon },
  page: lazy(() => import('./UserGroupPage')),
});
