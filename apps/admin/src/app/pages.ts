import type { AdminPage } from './pages-type';
import { pages as operator } from '@admin/features/operator';

/** Every console page; each feature adds its list with one line. */
export const PAGES: AdminPage[] = [...operator];
