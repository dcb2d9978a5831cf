import { lazy } from 'react';
import Icon from '@mui/icons-material/ExtensionOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'mcp',
  path: '/panel/mcp',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', order: 25, icon: Icon },
  page: lazy(() => import('./McpServerPage')),
});
