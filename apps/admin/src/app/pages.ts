import type { AdminPage } from './pages-type';
import { pages as dashboard } from '@admin/features/dashboard';
import { pages as operator } from '@admin/features/operator';
import { pages as user } from '@admin/features/user';
import { pages as kyc } from '@admin/features/kyc';
import { pages as cardDeposit } from '@admin/features/card-deposit';
import { pages as withdrawal } from '@admin/features/withdrawal';
import { pages as mining } from '@admin/features/mining';
import { pages as loans } from '@admin/features/loans';
import { pages as contracts } from '@admin/features/contracts';
import { pages as market } from '@admin/features/market';
import { pages as wallet } from '@admin/features/wallet';
import { pages as news } from '@admin/features/news';
import { pages as messages } from '@admin/features/messages';
import { pages as vote } from '@admin/features/vote';
import { pages as invite } from '@admin/features/invite';
import { pages as ieo } from '@admin/features/ieo';

/** Every console page; each feature adds its import above and one line here. */
export const PAGES: AdminPage[] = [
  ...dashboard,
  ...operator,
  ...user,
  ...kyc,
  ...cardDeposit,
  ...withdrawal,
  ...market,
  ...contracts,
  ...wallet,
  ...mining,
  ...loans,
  ...news,
  ...messages,
  ...vote,
  ...invite,
  ...ieo,
];
