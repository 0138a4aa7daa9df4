import { Navigate, type RouteObject, matchRoutes, useRoutes } from '@/lib/router.tsx';
import { http } from '@/api/http.ts';
import { getToken } from '@/lib/storage.ts';
import { isOpenPath } from './guard.ts';
import { type PageHandle, page } from './page.tsx';
import { Shell } from './shell.tsx';

/**
 * Home's requests as it opens, in the form its queries send them: they start with Home's code,
 * not after it. A browser test (shell.e2e.ts) opens Home and fails if one is not taken by the
 * page (the console warns), if the page sends its own instead, or if they start late.
 */
const HOME_REQUESTS = [
  '/api/v1/config',
  '/api/v1/messages/unread',
  '/api/v1/wallet/balances',
  '/api/v1/contracts/orders?state=open&limit=20',
  '/api/v1/market/instruments',
  '/api/v1/market/tickers',
  '/api/v1/news?kind=notice',
  '/api/v1/news?kind=news',
  '/api/v1/points/checkin',
] as const;

export const ROUTE_PATHS = [
  '/',
  '/Transaction',
  '/Mining',
  '/My',
  '/Login',
  '/Register',
  '/ForgetPwd',
  '/ChangePwd',
  '/Agree',
  '/Success',
  '/Language',
  '/About',
  '/Wallet',
  '/SelectCoin',
  '/Recharge',
  '/RechargeHistory',
  '/RealName',
  '/RechargeCard',
  '/Withdrawal',
  '/CardWithdrawal',
  '/WithdrawalHistory',
  '/Card',
  '/AddCard',
  '/WithdrawPassword',
  '/TradePassword',
  '/Transform',
  '/WalletDetail',
  '/FinancialDetail',
  '/Detail',
  '/Contract',
  '/ContractDetail',
  '/Vote',
  '/Invite',
  '/PointsHistory',
  '/SetInfo',
  '/SetEmail',
  '/SetPhone',
  '/Credit',
  '/Security',
  '/TwoFactor',
  '/MiningInfo',
  '/MiningHis',
  '/MiningDetail',
  '/IEO',
  '/IEOHis',
  '/Msg',
  '/MsgDetail',
  '/NewsDetail',
  '/NoticeDetail',
  '/Loan',
  '/LoansHistory',
];

const routes: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      {
        path: '/',
        // Its own chunk too: the sign-in page does not download the tab bar and its icons.
        ...page(() => import('./tab-layout.tsx'), 'TabLayout', { firstScreen: true }),
        children: [
          {
            index: true,
            ...page(() => import('@/features/home/home-page.tsx'), 'HomePage', {
              firstScreen: true,
              early: HOME_REQUESTS,
            }),
          },
          {
            path: 'Transaction',
            ...page(() => import('@/features/trade/transaction-page.tsx'), 'TransactionPage'),
          },
          {
            path: 'Mining',
            ...page(() => import('@/features/mining/mining-page.tsx'), 'MiningPage'),
          },
          { path: 'My', ...page(() => import('@/features/my/my-page.tsx'), 'MyPage') },
        ],
      },
      {
        path: '/Login',
        ...page(() => import('@/features/auth/pages/login-page.tsx'), 'LoginPage', {
          firstScreen: true,
        }),
      },
      {
        path: '/Register',
        ...page(() => import('@/features/auth/pages/register-page.tsx'), 'RegisterPage'),
      },
      {
        path: '/ForgetPwd',
        ...page(() => import('@/features/auth/pages/forget-pwd-page.tsx'), 'ForgetPwdPage'),
      },
      {
        path: '/ChangePwd',
        ...page(() => import('@/features/auth/pages/change-pwd-page.tsx'), 'ChangePwdPage'),
      },
      { path: '/Agree', ...page(() => import('@/features/legal/agree-page.tsx'), 'AgreePage') },
      {
        path: '/Success',
        ...page(() => import('@/features/misc/success-page.tsx'), 'SuccessPage'),
      },
      {
        path: '/Language',
        ...page(() => import('@/features/settings/language-page.tsx'), 'LanguagePage'),
      },
      { path: '/About', ...page(() => import('@/features/settings/about-page.tsx'), 'AboutPage') },
      { path: '/Wallet', ...page(() => import('@/features/wallet/wallet-page.tsx'), 'WalletPage') },
      {
        path: '/SelectCoin',
        ...page(() => import('@/features/wallet/select-coin-page.tsx'), 'SelectCoinPage'),
      },
      {
        path: '/Recharge',
        ...page(() => import('@/features/deposit/recharge-page.tsx'), 'RechargePage'),
      },
      {
        path: '/RechargeHistory',
        ...page(
          () => import('@/features/deposit/recharge-history-page.tsx'),
          'RechargeHistoryPage',
        ),
      },
      { path: '/RealName', ...page(() => import('@/features/kyc/kyc-page.tsx'), 'RealNamePage') },
      {
        path: '/RechargeCard',
        ...page(() => import('@/features/card-deposit/card-deposit-page.tsx'), 'RechargeCardPage'),
      },
      {
        path: '/Withdrawal',
        ...page(() => import('@/features/withdrawal/withdrawal-page.tsx'), 'WithdrawalPage'),
      },
      {
        path: '/CardWithdrawal',
        ...page(
          () => import('@/features/withdrawal/card-withdrawal-page.tsx'),
          'CardWithdrawalPage',
        ),
      },
      {
        path: '/WithdrawalHistory',
        ...page(
          () => import('@/features/withdrawal/withdrawal-history-page.tsx'),
          'WithdrawalHistoryPage',
        ),
      },
      {
        path: '/Card',
        ...page(() => import('@/features/bank-card/card-list-page.tsx'), 'CardListPage'),
      },
      {
        path: '/AddCard',
        ...page(() => import('@/features/bank-card/add-card-page.tsx'), 'AddCardPage'),
      },
      {
        path: '/WithdrawPassword',
        ...page(
          () => import('@/features/money-password/withdraw-password-page.tsx'),
          'WithdrawPasswordPage',
        ),
      },
      {
        path: '/TradePassword',
        ...page(
          () => import('@/features/money-password/trade-password-page.tsx'),
          'TradePasswordPage',
        ),
      },
      {
        path: '/Transform',
        ...page(() => import('@/features/transform/transform-page.tsx'), 'TransformPage'),
      },
      {
        path: '/WalletDetail',
        ...page(() => import('@/features/funds/funds-page.tsx'), 'FundsPage'),
      },
      {
        path: '/FinancialDetail',
        ...page(() => import('@/features/funds/funds-page.tsx'), 'FundsPage'),
      },
      { path: '/Detail', ...page(() => import('@/features/trade/detail-page.tsx'), 'DetailPage') },
      {
        path: '/Contract',
        ...page(() => import('@/features/contracts/contract-page.tsx'), 'ContractPage'),
      },
      {
        path: '/ContractDetail',
        ...page(
          () => import('@/features/contracts/contract-detail-page.tsx'),
          'ContractDetailPage',
        ),
      },
      { path: '/Vote', ...page(() => import('@/features/vote/vote-page.tsx'), 'VotePage') },
      { path: '/Invite', ...page(() => import('@/features/invite/invite-page.tsx'), 'InvitePage') },
      {
        path: '/PointsHistory',
        ...page(() => import('@/features/points/points-history-page.tsx'), 'PointsHistoryPage'),
      },
      { path: '/SetInfo', ...page(() => import('@/features/my/set-info-page.tsx'), 'SetInfoPage') },
      {
        path: '/SetEmail',
        ...page(() => import('@/features/my/set-contact-page.tsx'), 'SetEmailPage'),
      },
      {
        path: '/SetPhone',
        ...page(() => import('@/features/my/set-contact-page.tsx'), 'SetPhonePage'),
      },
      { path: '/Credit', ...page(() => import('@/features/my/credit-page.tsx'), 'CreditPage') },
      {
        path: '/Security',
        ...page(() => import('@/features/security/security-page.tsx'), 'SecurityPage'),
      },
      {
        path: '/TwoFactor',
        ...page(() => import('@/features/security/two-factor-page.tsx'), 'TwoFactorPage'),
      },
      {
        path: '/MiningInfo',
        ...page(() => import('@/features/mining/mining-info-page.tsx'), 'MiningInfoPage'),
      },
      {
        path: '/MiningHis',
        ...page(() => import('@/features/mining/mining-his-page.tsx'), 'MiningHisPage'),
      },
      {
        path: '/MiningDetail',
        ...page(() => import('@/features/mining/mining-detail-page.tsx'), 'MiningDetailPage'),
      },
      { path: '/IEO', ...page(() => import('@/features/ieo/ieo-page.tsx'), 'IeoPage') },
      {
        path: '/IEOHis',
        ...page(() => import('@/features/ieo/ieo-history-page.tsx'), 'IeoHistoryPage'),
      },
      { path: '/Msg', ...page(() => import('@/features/messages/msg-page.tsx'), 'MsgPage') },
      {
        path: '/MsgDetail',
        ...page(() => import('@/features/messages/msg-detail-page.tsx'), 'MsgDetailPage'),
      },
      {
        path: '/NewsDetail',
        ...page(() => import('@/features/news/news-detail-page.tsx'), 'NewsDetailPage'),
      },
      {
        path: '/NoticeDetail',
        ...page(() => import('@/features/news/news-detail-page.tsx'), 'NoticeDetailPage'),
      },
      { path: '/Loan', ...page(() => import('@/features/loans/loan-page.tsx'), 'LoanPage') },
      {
        path: '/LoansHistory',
        ...page(() => import('@/features/loans/loans-history-page.tsx'), 'LoansHistoryPage'),
      },
      // spec §2: any unknown path redirects to "/".
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * The route table, rendered under `<BrowserRouter>` (app.tsx). Not React Router's data router
 * (`createBrowserRouter`): the app uses no loaders, actions or fetchers, and the data router's
 * code is about a third of the library that every first screen would download.
 */
export function AppRoutes() {
  return useRoutes(routes);
}

/**
 * Starts downloading the page `pathname` shows (the sign-in page when the guard will send the
 * visitor there), so it arrives alongside the translations instead of after them, and its GETs,
 * except those the server `answered` inside the page. Resolves when the page's code is loaded
 * (or failed to load: then the route imports it again when it renders), which hydration waits for (`main.tsx`).
 */
export function preloadRoute(pathname: string, answered: readonly string[] = []): Promise<void> {
  const signedIn = getToken() !== null;
  const target = !isOpenPath(pathname) && !signedIn ? '/Login' : pathname;
  const loading: Promise<unknown>[] = [];
  for (const route of matchRoutes(routes, target) ?? []) {
    const handle = route.handle as PageHandle | undefined;
    if (handle) loading.push(handle.preload().catch(() => undefined));
    if (handle?.early && signedIn)
      http.early(handle.early.filter((url) => !answered.includes(url)));
  }
  return Promise.all(loading).then(() => undefined);
}
