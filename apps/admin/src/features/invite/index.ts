import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [{ path: 'bonus-codes', group: 'content', label: { en: 'Bonus codes', 'zh-CN': '奖励码' }, roles: CATALOG_ROLES, component: lazy(() => import('./BonusCodes')) }];
