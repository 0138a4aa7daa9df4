import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'catalog/miners', group: 'catalog', label: { en: 'Miner products', 'zh-CN': '矿机产品' }, roles: CATALOG_ROLES, component: lazy(() => import('./MinerProducts')) },
];
