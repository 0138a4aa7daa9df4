import { List, Skeleton } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate, useSearchParams } from '@/lib/router.tsx';
import { useBalances } from '@/api/balances.ts';
import { formatBalance } from '@/lib/format.ts';
import { AssetIcon } from '@/ui/asset-icon.tsx';
import { Page } from '@/ui/page.tsx';

/** Where a chosen currency goes next: only screens that take one. */
const NEXT_SCREENS = ['Withdrawal', 'Recharge', 'WalletDetail'] as const;

/** Choose a currency, then continue to `?next=` with `?asset=`. */
export function SelectCoinPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = NEXT_SCREENS.find((screen) => screen === params.get('next')) ?? 'Withdrawal';
  const balances = useBalances();
  return (
    <Page title={t('routes.SelectCoin')} backTo="/Wallet">
      {!balances.data ? (
        <Skeleton.Paragraph lineCount={6} animated />
      ) : (
        <List style={{ borderRadius: 12, overflow: 'hidden' }}>
          {balances.data.spot.map((row) => (
            <List.Item
              key={row.asset}
              prefix={<AssetIcon asset={row.asset} />}
              extra={formatBalance(row.available, row.asset, i18n.language)}
              onClick={() => navigate(`/${next}?asset=${row.asset}`)}
            >
              {row.asset}
            </List.Item>
          ))}
        </List>
      )}
    </Page>
  );
}
