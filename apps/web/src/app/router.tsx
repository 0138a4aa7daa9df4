import { Route, Switch } from 'wouter';
import { Layout, Navigate, matchesPath } from '@/lib/router.tsx';
import { http } from '@/api/http.ts';
import { getToken } from '@/lib/storage.ts';
import { isOpenPath } from './guard.ts';
import { page } from './page.tsx';
import { Shell } from './shell.tsx';

/** A page of the table, with the path it is at: its element and its preload. */
type PageAt = readonly [path: string, page: ReturnType<typeof page>];

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
  '/Theme',
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
  '/Rewards',
  '/Shop',
  '/ShopOrders',
  '/Address',
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

/** The tab bar's layout: its own chunk, so the sign-in page does not download the tab bar and its icons. */
const tabLayout = page(() => import('./tab-layout.tsx'), 'TabLayout', { firstScreen: true });

/** Home, Trade, Mining and My: the pages behind the bottom tabs, inside the tab layout. */
const TAB_PAGES: readonly PageAt[] = [
  [
    '/',
    page(() => import('@/features/home/home-page.tsx'), 'HomePage', {
      firstScreen: true,
      early: HOME_REQUESTS,
    }),
  ],
  ['/Transaction', page(() => import('@/features/trade/transaction-page.tsx'), 'TransactionPage')],
  ['/Mining', page(() => import('@/features/mining/mining-page.tsx'), 'MiningPage')],
  ['/My', page(() => import('@/features/my/my-page.tsx'), 'MyPage')],
];

/** Where the tab layout shows: at any of `TAB_PAGES`' paths, matched as wouter matches a path. */
const TAB_NAMES = TAB_PAGES.map(([path]) => path.slice(1)).filter(Boolean);
const TAB_PATH = new RegExp(`^/(?:${TAB_NAMES.join('|')})?/?$`, 'i');

/** Every other page, inside the shell alone. */
const PAGES: readonly PageAt[] = [
  [
    '/Login',
    page(() => import('@/features/auth/pages/login-page.tsx'), 'LoginPage', {
      firstScreen: true,
    }),
  ],
  ['/Register', page(() => import('@/features/auth/pages/register-page.tsx'), 'RegisterPage')],
  ['/ForgetPwd', page(() => import('@/features/auth/pages/forget-pwd-page.tsx'), 'ForgetPwdPage')],
  ['/ChangePwd', page(() => import('@/features/auth/pages/change-pwd-page.tsx'), 'ChangePwdPage')],
  ['/Agree', page(() => import('@/features/legal/agree-page.tsx'), 'AgreePage')],
  ['/Success', page(() => import('@/features/misc/success-page.tsx'), 'SuccessPage')],
  ['/Language', page(() => import('@/features/settings/language-page.tsx'), 'LanguagePage')],
  ['/Theme', page(() => import('@/features/settings/theme-page.tsx'), 'ThemePage')],
  ['/About', page(() => import('@/features/settings/about-page.tsx'), 'AboutPage')],
  ['/Wallet', page(() => import('@/features/wallet/wallet-page.tsx'), 'WalletPage')],
  ['/SelectCoin', page(() => import('@/features/wallet/select-coin-page.tsx'), 'SelectCoinPage')],
  ['/Recharge', page(() => import('@/features/deposit/recharge-page.tsx'), 'RechargePage')],
  [
    '/RechargeHistory',
    page(() => import('@/features/deposit/recharge-history-page.tsx'), 'RechargeHistoryPage'),
  ],
  ['/RealName', page(() => import('@/features/kyc/kyc-page.tsx'), 'RealNamePage')],
  [
    '/RechargeCard',
    page(() => import('@/features/card-deposit/card-deposit-page.tsx'), 'RechargeCardPage'),
  ],
  [
    '/Withdrawal',
    page(() => import('@/features/withdrawal/withdrawal-page.tsx'), 'WithdrawalPage'),
  ],
  [
    '/CardWithdrawal',
    page(() => import('@/features/withdrawal/card-withdrawal-page.tsx'), 'CardWithdrawalPage'),
  ],
  [
    '/WithdrawalHistory',
    page(
      () => import('@/features/withdrawal/withdrawal-history-page.tsx'),
      'WithdrawalHistoryPage',
    ),
  ],
  ['/Card', page(() => import('@/features/bank-card/card-list-page.tsx'), 'CardListPage')],
  ['/AddCard', page(() => import('@/features/bank-card/add-card-page.tsx'), 'AddCardPage')],
  [
    '/WithdrawPassword',
    page(
      () => import('@/features/money-password/withdraw-password-page.tsx'),
      'WithdrawPasswordPage',
    ),
  ],
  [
    '/TradePassword',
    page(() => import('@/features/money-password/trade-password-page.tsx'), 'TradePasswordPage'),
  ],
  ['/Transform', page(() => import('@/features/transform/transform-page.tsx'), 'TransformPage')],
  ['/WalletDetail', page(() => import('@/features/funds/funds-page.tsx'), 'FundsPage')],
  ['/FinancialDetail', page(() => import('@/features/funds/funds-page.tsx'), 'FundsPage')],
  ['/Detail', page(() => import('@/features/trade/detail-page.tsx'), 'DetailPage')],
  ['/Contract', page(() => import('@/features/contracts/contract-page.tsx'), 'ContractPage')],
  [
    '/ContractDetail',
    page(() => import('@/features/contracts/contract-detail-page.tsx'), 'ContractDetailPage'),
  ],
  ['/Vote', page(() => import('@/features/vote/vote-page.tsx'), 'VotePage')],
  ['/Invite', page(() => import('@/features/invite/invite-page.tsx'), 'InvitePage')],
  [
    '/PointsHistory',
    page(() => import('@/features/points/points-history-page.tsx'), 'PointsHistoryPage'),
  ],
  ['/Rewards', page(() => import('@/features/rewards/rewards-page.tsx'), 'RewardsPage')],
  ['/Shop', page(() => import('@/features/shop/shop-page.tsx'), 'ShopPage')],
  ['/ShopOrders', page(() => import('@/features/shop/shop-orders-page.tsx'), 'ShopOrdersPage')],
  ['/Address', page(() => import('@/features/shop/address-page.tsx'), 'AddressPage')],
  ['/SetInfo', page(() => import('@/features/my/set-info-page.tsx'), 'SetInfoPage')],
  ['/SetEmail', page(() => import('@/features/my/set-contact-page.tsx'), 'SetEmailPage')],
  ['/SetPhone', page(() => import('@/features/my/set-contact-page.tsx'), 'SetPhonePage')],
  ['/Credit', page(() => import('@/features/my/credit-page.tsx'), 'CreditPage')],
  ['/Security', page(() => import('@/features/security/security-page.tsx'), 'SecurityPage')],
  ['/TwoFactor', page(() => import('@/features/security/two-factor-page.tsx'), 'TwoFactorPage')],
  ['/MiningInfo', page(() => import('@/features/mining/mining-info-page.tsx'), 'MiningInfoPage')],
  ['/MiningHis', page(() => import('@/features/mining/mining-his-page.tsx'), 'MiningHisPage')],
  [
    '/MiningDetail',
    page(() => import('@/features/mining/mining-detail-page.tsx'), 'MiningDetailPage'),
  ],
  ['/IEO', page(() => import('@/features/ieo/ieo-page.tsx'), 'IeoPage')],
  ['/IEOHis', page(() => import('@/features/ieo/ieo-history-page.tsx'), 'IeoHistoryPage')],
  ['/Msg', page(() => import('@/features/messages/msg-page.tsx'), 'MsgPage')],
  ['/MsgDetail', page(() => import('@/features/messages/msg-detail-page.tsx'), 'MsgDetailPage')],
  ['/NewsDetail', page(() => import('@/features/news/news-detail-page.tsx'), 'NewsDetailPage')],
  ['/NoticeDetail', page(() => import('@/features/news/news-detail-page.tsx'), 'NoticeDetailPage')],
  ['/Loan', page(() => import('@/features/loans/loan-page.tsx'), 'LoanPage')],
  [
    '/LoansHistory',
    page(() => import('@/features/loans/loans-history-page.tsx'), 'LoansHistoryPage'),
  ],
];

function routes(entries: readonly PageAt[]) {
  return entries.map(([path, entry]) => (
    <Route key={path} path={path}>
      {entry.element}
    </Route>
  ));
}

/**
 * The route table, rendered under `<BrowserRouter>` (app.tsx): the shell around every page, the
 * tab layout around the tab pages, and any unknown path sent to "/" (spec §2).
 */
export function AppRoutes() {
  return (
    <Layout element={<Shell />}>
      <Switch>
        <Route path={TAB_PATH}>
          <Layout element={tabLayout.element}>
            <Switch>{routes(TAB_PAGES)}</Switch>
          </Layout>
        </Route>
        {routes(PAGES)}
        <Route>
          <Navigate to="/" replace />
        </Route>
      </Switch>
    </Layout>
  );
}

/** The pages `pathname` shows, from the tab layout down: none for an unknown path. */
function matchedPages(pathname: string): ReturnType<typeof page>[] {
  const matching = (entries: readonly PageAt[]) =>
    entries.filter(([path]) => matchesPath(path, pathname)).map(([, entry]) => entry);
  return matchesPath(TAB_PATH, pathname) ? [tabLayout, ...matching(TAB_PAGES)] : matching(PAGES);
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
  for (const { handle } of matchedPages(target)) {
    loading.push(handle.preload().catch(() => undefined));
    if (handle.early && signedIn) http.early(handle.early.filter((url) => !answered.includes(url)));
  }
  return Promise.all(loading).then(() => undefined);
}
