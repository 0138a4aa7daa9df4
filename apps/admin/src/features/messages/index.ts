import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

// Sending to every user is an administrator's action on the server (POST /messages/broadcast): the page follows it.
export const pages: AdminPage[] = [{ path: 'broadcast', group: 'content', label: { en: 'Broadcast', 'zh-CN': '群发消息' }, roles: CATALOG_ROLES, component: lazy(() => import('./Broadcast')) }];
