import { lazy } from 'react';
import Icon from '@mui/icons-material/Telegram';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'telegram',
  path: '/panel/telegram',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', parent: 'operation', order: 30, icon: Icon },
  page: lazy(() => import('./TelegramPage')),
});
