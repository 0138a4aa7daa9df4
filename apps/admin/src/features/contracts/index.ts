import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'catalog/periods', group: 'catalog', label: { en: 'Contract periods', 'zh-CN': '合约周期' }, roles: CATALOG_ROLES, component: lazy(() => import('./Periods')) },
];
