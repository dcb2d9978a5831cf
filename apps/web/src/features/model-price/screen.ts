import { lazy } from 'react';
import Icon from '@mui/icons-material/ViewInArOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens(
  { id: 'model_price', path: '/panel/model_price', layout: 'panel', access: 'user', menu: { group: 'billing', order: 20, icon: Icon }, page: lazy(() => import('./ModelPricePage')) },
  { id: 'price', path: '/price', layout: 'public', access: 'public', title: 'menu.model_price', page: lazy(() => import('./PublicPricePage')) },
);
