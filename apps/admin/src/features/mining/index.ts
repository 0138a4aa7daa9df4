import { REVIEW_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'queues/mining', group: 'queues', label: { en: 'Miner rentals', 'zh-CN': '矿机租赁' }, roles: REVIEW_ROLES, component: lazy(() => import('./MiningQueue')) },
];
