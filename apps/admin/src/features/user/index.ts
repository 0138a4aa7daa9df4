import { ADMIN_ROLES, REVIEW_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

/** Users: search and a read-only detail (reviewers may read); adjustments are for admins (issue 7). */
export const pages: AdminPage[] = [
  { path: 'users', group: 'users', label: { en: 'Users', 'zh-CN': '用户' }, roles: REVIEW_ROLES, component: lazy(() => import('./UserSearch')) },
  { path: 'users/:uid', group: 'users', label: { en: 'User', 'zh-CN': '用户详情' }, roles: REVIEW_ROLES, component: lazy(() => import('./UserDetail')), hidden: true },
  { path: 'adjustments', group: 'users', label: { en: 'Adjustments', 'zh-CN': '调账审批' }, roles: ADMIN_ROLES, component: lazy(() => import('./Adjustments')) },
];
