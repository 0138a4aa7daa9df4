import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'catalog/instruments', group: 'catalog', label: { en: 'Instruments', 'zh-CN': '交易品种' }, roles: CATALOG_ROLES, component: lazy(() => import('./Instruments')) },
];
