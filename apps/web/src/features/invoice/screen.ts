import { lazy } from 'react';
import Icon from '@mui/icons-material/ReceiptLongOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens(
  {
    id: 'invoice',
    path: '/panel/invoice',
    layout: 'panel',
    access: 'user',
    menu: { group: 'usage', order: 15, icon: Icon, siteFlag: 'UserInvoiceMonth' },
    page: lazy(() => import('./InvoicePage')),
  },
  { id: 'invoiceDetail', path: '/panel/invoice/detail/:date', layout: 'panel', access: 'user', page: lazy(() => import('./InvoiceDetailPage')) },
);
