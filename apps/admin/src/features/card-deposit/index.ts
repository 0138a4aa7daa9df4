import { REVIEW_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'queues/card-deposits', group: 'queues', label: { en: 'Bank-card deposits', 'zh-CN': '银行卡充值' }, roles: REVIEW_ROLES, component: lazy(() => import('./CardDepositQueue')) },
];
