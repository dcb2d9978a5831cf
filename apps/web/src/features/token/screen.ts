import { lazy } from 'react';
import Icon from '@mui/icons-material/KeyOutlined';
import { defineScreens } from '../../lib/screen';

// Placeholder until the token screen lands: replace `page` with this feature's own page.
export default defineScreens({
  id: 'token',
  path: '/panel/token',
  layout: 'panel',
  access: 'user',
  menu: { group: 'setting', order: 50, icon: Icon },
  page: lazy(() => import('../../components/ComingSoon')),
});
