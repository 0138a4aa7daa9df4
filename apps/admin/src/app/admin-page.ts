import type { OperatorRole } from '@tradewind/contract/operator';
import type { ComponentType, LazyExoticComponent } from 'react';
import type { Label } from '@/lib/i18n.ts';

/** Menu groups, in the order the side menu shows them. */
export const PAGE_GROUPS = ['overview', 'queues', 'users', 'catalog', 'content', 'system'] as const;
export type PageGroup = (typeof PAGE_GROUPS)[number];

/** One screen of the console; app/pages.ts lists them all. */
export interface AdminPage {
  /** Relative to /admin/, e.g. 'kyc' or 'users/:uid'. */
  path: string;
  group: PageGroup;
  label: Label;
  /** Who sees it in the menu and may open it; the server enforces the same roles on every route. */
  roles: readonly OperatorRole[];
  component: LazyExoticComponent<ComponentType>;
  /** Reached by links only (a detail page), not listed in the menu. */
  hidden?: boolean;
}
