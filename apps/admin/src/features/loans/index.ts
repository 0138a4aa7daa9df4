import { REVIEW_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'queues/loans', group: 'queues', label: { en: 'Loans', 'zh-CN': '贷款' }, roles: REVIEW_ROLES, component: lazy(() => import('./LoanQueue')) },
];
