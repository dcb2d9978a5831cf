import { lazy } from 'react';
import Icon from '@mui/icons-material/AccountCircleOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'profile',
  path: '/panel/profile',
  layout: 'panel',
  access: 'user',
  menu: { group: 'setting', order: 60, icon: Icon },
  page: lazy(() => import('./ProfilePage')),
});
