import { lazy } from 'react';
import Icon from '@mui/icons-material/PeopleAltOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'user',
  path: '/panel/user',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', order: 10, icon: Icon },
  page: lazy(() => import('./UserPage')),
});
