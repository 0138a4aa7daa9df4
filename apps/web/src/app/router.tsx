import { type ComponentType, lazy } from 'react';
import { Navigate, createBrowserRouter } from 'react-router';
import { Shell } from './shell.tsx';
import { TabLayout } from './tab-layout.tsx';

/** Each page is its own chunk. */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  const Component = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return <Component />;
}

const placeholder = (titleKey: string, tab = false) => {
  const Placeholder = lazy(async () => {
    const { PlaceholderPage } = await import('@/features/misc/placeholder-page.tsx');
    return { default: () => <PlaceholderPage titleKey={titleKey} tab={tab} /> };
  });
  return <Placeholder />;
};

/**
 * Screens later issues build (wallet, markets, products…) are titled pages with a back
 * button until then. Paths are spec §2's, exactly.
 */
const PLACEHOLDER_ROUTES = [] as const;

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
  ...PLACEHOLDER_ROUTES.map((name) => `/${name}`),
];

export const router = createBrowserRouter([
  {
    element: <Shell />,
    children: [
      {
        path: '/',
        element: <TabLayout />,
        children: [
          { index: true, element: page(() => import('@/features/home/home-page.tsx'), 'HomePage') },
          { path: 'Transaction', element: page(() => import('@/features/trade/transaction-page.tsx'), 'TransactionPage') },
          { path: 'Mining', element: page(() => import('@/features/mining/mining-page.tsx'), 'MiningPage') },
          { path: 'My', element: page(() => import('@/features/my/my-page.tsx'), 'MyPage') },
        ],
      },
      { path: '/Login', element: page(() => import('@/features/auth/pages/login-page.tsx'), 'LoginPage') },
      { path: '/Register', element: page(() => import('@/features/auth/pages/register-page.tsx'), 'RegisterPage') },
      { path: '/ForgetPwd', element: page(() => import('@/features/auth/pages/forget-pwd-page.tsx'), 'ForgetPwdPage') },
      { path: '/ChangePwd', element: page(() => import('@/features/auth/pages/change-pwd-page.tsx'), 'ChangePwdPage') },
      { path: '/Agree', element: page(() => import('@/features/legal/agree-page.tsx'), 'AgreePage') },
      { path: '/Success', element: page(() => import('@/features/misc/success-page.tsx'), 'SuccessPage') },
      { path: '/Language', element: page(() => import('@/features/settings/language-page.tsx'), 'LanguagePage') },
      { path: '/About', element: page(() => import('@/features/settings/about-page.tsx'), 'AboutPage') },
      { path: '/Wallet', element: page(() => import('@/features/wallet/wallet-page.tsx'), 'WalletPage') },
      { path: '/SelectCoin', element: page(() => import('@/features/wallet/select-coin-page.tsx'), 'SelectCoinPage') },
      { path: '/Recharge', element: page(() => import('@/features/deposit/recharge-page.tsx'), 'RechargePage') },
      { path: '/RechargeHistory', element: page(() => import('@/features/deposit/recharge-history-page.tsx'), 'RechargeHistoryPage') },
      { path: '/RealName', element: page(() => import('@/features/kyc/kyc-page.tsx'), 'RealNamePage') },
      { path: '/RechargeCard', element: page(() => import('@/features/card-deposit/card-deposit-page.tsx'), 'RechargeCardPage') },
      { path: '/Withdrawal', element: page(() => import('@/features/withdrawal/withdrawal-page.tsx'), 'WithdrawalPage') },
      { path: '/CardWithdrawal', element: page(() => import('@/features/withdrawal/card-withdrawal-page.tsx'), 'CardWithdrawalPage') },
      { path: '/WithdrawalHistory', element: page(() => import('@/features/withdrawal/withdrawal-history-page.tsx'), 'WithdrawalHistoryPage') },
      { path: '/Card', element: page(() => import('@/features/bank-card/card-list-page.tsx'), 'CardListPage') },
      { path: '/AddCard', element: page(() => import('@/features/bank-card/add-card-page.tsx'), 'AddCardPage') },
      { path: '/WithdrawPassword', element: page(() => import('@/features/money-password/withdraw-password-page.tsx'), 'WithdrawPasswordPage') },
      { path: '/TradePassword', element: page(() => import('@/features/money-password/trade-password-page.tsx'), 'TradePasswordPage') },
      { path: '/Transform', element: page(() => import('@/features/transform/transform-page.tsx'), 'TransformPage') },
      { path: '/WalletDetail', element: page(() => import('@/features/funds/funds-page.tsx'), 'FundsPage') },
      { path: '/FinancialDetail', element: page(() => import('@/features/funds/funds-page.tsx'), 'FundsPage') },
      { path: '/Detail', element: page(() => import('@/features/trade/detail-page.tsx'), 'DetailPage') },
      { path: '/Contract', element: page(() => import('@/features/contracts/contract-page.tsx'), 'ContractPage') },
      { path: '/ContractDetail', element: page(() => import('@/features/contracts/contract-detail-page.tsx'), 'ContractDetailPage') },
      { path: '/Vote', element: page(() => import('@/features/vote/vote-page.tsx'), 'VotePage') },
      { path: '/Invite', element: page(() => import('@/features/invite/invite-page.tsx'), 'InvitePage') },
      { path: '/PointsHistory', element: page(() => import('@/features/points/points-history-page.tsx'), 'PointsHistoryPage') },
      { path: '/SetInfo', element: page(() => import('@/features/my/set-info-page.tsx'), 'SetInfoPage') },
      { path: '/SetEmail', element: page(() => import('@/features/my/set-contact-page.tsx'), 'SetEmailPage') },
      { path: '/SetPhone', element: page(() => import('@/features/my/set-contact-page.tsx'), 'SetPhonePage') },
      { path: '/Credit', element: page(() => import('@/features/my/credit-page.tsx'), 'CreditPage') },
      { path: '/Security', element: page(() => import('@/features/security/security-page.tsx'), 'SecurityPage') },
      { path: '/TwoFactor', element: page(() => import('@/features/security/two-factor-page.tsx'), 'TwoFactorPage') },
      { path: '/MiningInfo', element: page(() => import('@/features/mining/mining-info-page.tsx'), 'MiningInfoPage') },
      { path: '/MiningHis', element: page(() => import('@/features/mining/mining-his-page.tsx'), 'MiningHisPage') },
      { path: '/MiningDetail', element: page(() => import('@/features/mining/mining-detail-page.tsx'), 'MiningDetailPage') },
      { path: '/IEO', element: page(() => import('@/features/ieo/ieo-page.tsx'), 'IeoPage') },
      { path: '/IEOHis', element: page(() => import('@/features/ieo/ieo-history-page.tsx'), 'IeoHistoryPage') },
      { path: '/Msg', element: page(() => import('@/features/messages/msg-page.tsx'), 'MsgPage') },
      { path: '/MsgDetail', element: page(() => import('@/features/messages/msg-detail-page.tsx'), 'MsgDetailPage') },
      { path: '/NewsDetail', element: page(() => import('@/features/news/news-detail-page.tsx'), 'NewsDetailPage') },
      { path: '/NoticeDetail', element: page(() => import('@/features/news/news-detail-page.tsx'), 'NoticeDetailPage') },
      { path: '/Loan', element: page(() => import('@/features/loans/loan-page.tsx'), 'LoanPage') },
      { path: '/LoansHistory', element: page(() => import('@/features/loans/loans-history-page.tsx'), 'LoansHistoryPage') },
      ...PLACEHOLDER_ROUTES.map((name) => ({ path: `/${name}`, element: placeholder(`routes.${name}`) })),
      // spec §2: any unknown path redirects to "/".
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]);
