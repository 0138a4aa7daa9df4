import { CATALOG_ROLES } from '@tradewind/contract/operator';
import { lazy } from 'react';
import type { AdminPage } from '@admin/app/pages-type';

export const pages: AdminPage[] = [{ path: 'news', group: 'content', label: { en: 'News & notices', 'zh-CN': '新闻与公告' }, roles: CATALOG_ROLES, component: lazy(() => import('./NewsPage')) }];
