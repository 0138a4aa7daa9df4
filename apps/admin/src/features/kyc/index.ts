import { REVIEW_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [
  { path: 'queues/kyc', group: 'queues', label: { en: 'Identity verification', 'zh-CN': '实名认证' }, roles: REVIEW_ROLES, component: lazy(() => import('./KycQueue')) },
];
