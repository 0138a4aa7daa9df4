import { ADMIN_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'operators', group: 'system', label: { en: 'Operators', 'zh-CN': '操作员' }, roles: ADMIN_ROLES, component: lazy(() => import('./Operators')) },
  { path: 'settings', group: 'system', label: { en: 'Settings', 'zh-CN': '系统设置' }, roles: ADMIN_ROLES, component: lazy(() => import('./Settings')) },
  { path: 'audit', group: 'system', label: { en: 'Audit log', 'zh-CN': '审计日志' }, roles: ADMIN_ROLES, component: lazy(() => import('./AuditLog')) },
];
