import {
  ADMIN_ROLES,
  CATALOG_ROLES,
  OPERATOR_ROLES,
  REVIEW_ROLES,
} from '@tradewind/contract/operator';
import { lazyPage } from '@/lib/lazy-page.ts';
import type { AdminPage } from './admin-page.ts';

/** Every console page, in menu order within each group; each is its feature's own chunk. */
export const PAGES: AdminPage[] = [
  {
    path: 'dashboard',
    group: 'overview',
    label: { en: 'Dashboard', 'zh-CN': '仪表盘' },
    roles: OPERATOR_ROLES,
    component: lazyPage(() => import('@/features/dashboard/dashboard-page.tsx'), 'DashboardPage'),
  },
  {
    path: 'operators',
    group: 'system',
    label: { en: 'Operators', 'zh-CN': '操作员' },
    roles: ADMIN_ROLES,
    component: lazyPage(() => import('@/features/operator/operators-page.tsx'), 'OperatorsPage'),
  },
  {
    path: 'settings',
    group: 'system',
    label: { en: 'Settings', 'zh-CN': '系统设置' },
    roles: ADMIN_ROLES,
    component: lazyPage(() => import('@/features/operator/settings-page.tsx'), 'SettingsPage'),
  },
  {
    path: 'audit',
    group: 'system',
    label: { en: 'Audit log', 'zh-CN': '审计日志' },
    roles: ADMIN_ROLES,
    component: lazyPage(() => import('@/features/operator/audit-log-page.tsx'), 'AuditLogPage'),
  },
  // Users: search and a read-only detail (reviewers may read); adjustments are for admins (issue 7).
  {
    path: 'users',
    group: 'users',
    label: { en: 'Users', 'zh-CN': '用户' },
    roles: REVIEW_ROLES,
    component: lazyPage(() => import('@/features/user/user-search-page.tsx'), 'UserSearchPage'),
  },
  {
    path: 'users/:uid',
    group: 'users',
    label: { en: 'User', 'zh-CN': '用户详情' },
    roles: REVIEW_ROLES,
    component: lazyPage(() => import('@/features/user/user-detail-page.tsx'), 'UserDetailPage'),
    hidden: true,
  },
  {
    path: 'adjustments',
    group: 'users',
    label: { en: 'Adjustments', 'zh-CN': '调账审批' },
    roles: ADMIN_ROLES,
    component: lazyPage(() => import('@/features/user/adjustments-page.tsx'), 'AdjustmentsPage'),
  },
  {
    path: 'queues/kyc',
    group: 'queues',
    label: { en: 'Identity verification', 'zh-CN': '实名认证' },
    roles: REVIEW_ROLES,
    component: lazyPage(() => import('@/features/kyc/kyc-queue-page.tsx'), 'KycQueuePage'),
  },
  {
    path: 'queues/shop-orders',
    group: 'queues',
    label: { en: 'Shop orders', 'zh-CN': '积分商城订单' },
    roles: REVIEW_ROLES,
    component: lazyPage(() => import('@/features/shop/shop-orders-page.tsx'), 'ShopOrdersPage'),
  },
  {
    path: 'queues/card-deposits',
    group: 'queues',
    label: { en: 'Bank-card deposits', 'zh-CN': '银行卡充值' },
    roles: REVIEW_ROLES,
    component: lazyPage(
      () => import('@/features/card-deposit/card-deposit-queue-page.tsx'),
      'CardDepositQueuePage',
    ),
  },
  {
    path: 'catalog/payee-accounts',
    group: 'catalog',
    label: { en: 'Payee accounts', 'zh-CN': '收款账户' },
    roles: CATALOG_ROLES,
    component: lazyPage(
      () => import('@/features/card-deposit/payee-accounts-page.tsx'),
      'PayeeAccountsPage',
    ),
  },
  {
    path: 'queues/withdrawals',
    group: 'queues',
    label: { en: 'Withdrawals', 'zh-CN': '提现' },
    roles: REVIEW_ROLES,
    component: lazyPage(
      () => import('@/features/withdrawal/withdrawal-queue-page.tsx'),
      'WithdrawalQueuePage',
    ),
  },
  {
    path: 'catalog/instruments',
    group: 'catalog',
    label: { en: 'Instruments', 'zh-CN': '交易品种' },
    roles: CATALOG_ROLES,
    component: lazyPage(() => import('@/features/market/instruments-page.tsx'), 'InstrumentsPage'),
  },
  {
    path: 'catalog/price-sources',
    group: 'catalog',
    label: { en: 'Price sources', 'zh-CN': '行情来源' },
    roles: CATALOG_ROLES,
    component: lazyPage(() => import('@/features/market/sources-page.tsx'), 'SourcesPage'),
  },
  {
    path: 'catalog/periods',
    group: 'catalog',
    label: { en: 'Contract periods', 'zh-CN': '合约周期' },
    roles: CATALOG_ROLES,
    component: lazyPage(() => import('@/features/contracts/periods-page.tsx'), 'PeriodsPage'),
  },
  {
    path: 'catalog/assets',
    group: 'catalog',
    label: { en: 'Assets', 'zh-CN': '资产' },
    roles: CATALOG_ROLES,
    component: lazyPage(() => import('@/features/wallet/assets-page.tsx'), 'AssetsPage'),
  },
  {
    path: 'queues/mining',
    group: 'queues',
    label: { en: 'Miner rentals', 'zh-CN': '矿机租赁' },
    roles: REVIEW_ROLES,
    component: lazyPage(() => import('@/features/mining/mining-queue-page.tsx'), 'MiningQueuePage'),
  },
  {
    path: 'catalog/miners',
    group: 'catalog',
    label: { en: 'Miner products', 'zh-CN': '矿机产品' },
    roles: CATALOG_ROLES,
    component: lazyPage(
      () => import('@/features/mining/miner-products-page.tsx'),
      'MinerProductsPage',
    ),
  },
  {
    path: 'queues/loans',
    group: 'queues',
    label: { en: 'Loans', 'zh-CN': '贷款' },
    roles: REVIEW_ROLES,
    component: lazyPage(() => import('@/features/loans/loan-queue-page.tsx'), 'LoanQueuePage'),
  },
  {
    path: 'catalog/loans',
    group: 'catalog',
    label: { en: 'Loan products', 'zh-CN': '贷款产品' },
    roles: CATALOG_ROLES,
    component: lazyPage(
      () => import('@/features/loans/loan-products-page.tsx'),
      'LoanProductsPage',
    ),
  },
  {
    path: 'news',
    group: 'content',
    label: { en: 'News & notices', 'zh-CN': '新闻与公告' },
    roles: CATALOG_ROLES,
    component: lazyPage(() => import('@/features/news/news-page.tsx'), 'NewsPage'),
  },
  // Sending to every user is an administrator's action on the server (POST /messages/broadcast): the page follows it.
  {
    path: 'broadcast',
    group: 'content',
    label: { en: 'Broadcast', 'zh-CN': '群发消息' },
    roles: CATALOG_ROLES,
    component: lazyPage(() => import('@/features/messages/broadcast-page.tsx'), 'BroadcastPage'),
  },
  {
    path: 'polls',
    group: 'content',
    label: { en: 'Polls', 'zh-CN': '投票' },
    roles: CATALOG_ROLES,
    component: lazyPage(() => import('@/features/vote/polls-page.tsx'), 'PollsPage'),
  },
  {
    path: 'bonus-codes',
    group: 'content',
    label: { en: 'Bonus codes', 'zh-CN': '奖励码' },
    roles: CATALOG_ROLES,
    component: lazyPage(() => import('@/features/invite/bonus-codes-page.tsx'), 'BonusCodesPage'),
  },
  // Reward budgets: two admins set what the house may give away (issue 29).
  {
    path: 'reward-budgets',
    group: 'content',
    label: { en: 'Reward budgets', 'zh-CN': '奖励预算' },
    roles: ADMIN_ROLES,
    component: lazyPage(
      () => import('@/features/rewards/reward-budgets-page.tsx'),
      'RewardBudgetsPage',
    ),
  },
  {
    path: 'ieo',
    group: 'content',
    label: { en: 'IEO projects', 'zh-CN': 'IEO 项目' },
    roles: CATALOG_ROLES,
    component: lazyPage(() => import('@/features/ieo/ieo-projects-page.tsx'), 'IeoProjectsPage'),
  },
];
