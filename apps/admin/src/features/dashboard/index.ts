import { OPERATOR_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'dashboard', group: 'overview', label: { en: 'Dashboard', 'zh-CN': '仪表盘' }, roles: OPERATOR_ROLES, component: lazy(() => import('./Dashboard')) },
];
