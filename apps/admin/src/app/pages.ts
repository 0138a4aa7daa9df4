import type { AdminPage } from './pages-type';
import { pages as dashboard } from '@admin/features/dashboard';
import { pages as operator } from '@admin/features/operator';
import { pages as user } from '@admin/features/user';

/** Every console page; each feature adds its import above and one line here. */
export const PAGES: AdminPage[] = [
  ...dashboard,
  ...operator,
  ...user,
];
