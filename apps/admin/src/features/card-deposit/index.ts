import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'catalog/payee-accounts', group: 'catalog', label: { en: 'Payee accounts', 'zh-CN': '收款账户' }, roles: CATALOG_ROLES, component: lazy(() => import('./PayeeAccounts')) },
];
