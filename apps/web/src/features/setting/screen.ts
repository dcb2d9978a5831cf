import { lazy } from 'react';
import Icon from '@mui/icons-material/SettingsOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'setting',
  path: '/panel/setting',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', order: 70, icon: Icon },
  page: lazy(() => import('./SettingPage')),
});
