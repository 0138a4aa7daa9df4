import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [{ path: 'ieo', group: 'content', label: { en: 'IEO projects', 'zh-CN': 'IEO 项目' }, roles: CATALOG_ROLES, component: lazy(() => import('./IeoProjects')) }];
