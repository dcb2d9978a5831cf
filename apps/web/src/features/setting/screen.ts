import { lazy } from 'react';
import Icon from '@mui/icons-material/SettingsOutlined';
import { defineScreens } from '../../lib/screen';

// Placeholder until the setting screen lands: replace `page` with this feature's own page.
export default defineScreens({
  id: 'setting',
  path: '/panel/setting',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', order: 70, icon: Icon },
  page: lazy(() => import('../../components/ComingSoon')),
});
