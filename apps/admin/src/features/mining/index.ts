import { CATALOG_ROLES, REVIEW_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'queues/mining', group: 'queues', label: { en: 'Miner rentals', 'zh-CN': '矿机租赁' }, roles: REVIEW_ROLES, component: lazy(() => import('./MiningQueue')) },
  { path: 'catalog/miners', group: 'catalog', label: { en: 'Miner products', 'zh-CN': '矿机产品' }, roles: CATALOG_ROLES, component: lazy(() => import('./MinerProducts')) },
];
