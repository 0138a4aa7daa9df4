import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'catalog/assets', group: 'catalog', label: { en: 'Assets', 'zh-CN': '资产' }, roles: CATALOG_ROLES, component: lazy(() => import('./Assets')) },
];
