import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [{ path: 'polls', group: 'content', label: { en: 'Polls', 'zh-CN': '投票' }, roles: CATALOG_ROLES, component: lazy(() => import('./Polls')) }];
