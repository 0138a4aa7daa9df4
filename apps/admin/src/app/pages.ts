import type { AdminPage } from './pages-type';
import { pages as operator } from '@admin/features/operator';
import { pages as news } from '@admin/features/news';
import { pages as messages } from '@admin/features/messages';
import { pages as vote } from '@admin/features/vote';
import { pages as invite } from '@admin/features/invite';
import { pages as ieo } from '@admin/features/ieo';

/** Every console page; each feature adds its list with one line. */
export const PAGES: AdminPage[] = [...operator, ...news, ...messages, ...vote, ...invite, ...ieo];
