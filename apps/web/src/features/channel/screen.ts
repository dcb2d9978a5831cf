import { lazy } from 'react';
import Icon from '@mui/icons-material/HubOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'channel',
  path: '/panel/channel',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', order: 20, icon: Icon },
  page: lazy(() => import('./ChannelPage')),
});
