import { REVIEW_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'queues/withdrawals', group: 'queues', label: { en: 'Withdrawals', 'zh-CN': '提现' }, roles: REVIEW_ROLES, component: lazy(() => import('./WithdrawalQueue')) },
];
