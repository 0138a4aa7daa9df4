import type { SpotBalance } from '@tradewind/contract/wallet';
import { Button, ErrorBlock, List, Skeleton, Tabs } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate, useSearchParams } from '@/lib/router.tsx';
import { useBalances } from '@/api/balances.ts';
import { formatBalance, formatUsdt } from '@/lib/format.ts';
import { AssetIcon } from '@/ui/asset-icon.tsx';
import { Page } from '@/ui/page.tsx';

/** Wallet with spot and futures tabs (spec §3 Wallet). */
export function WalletPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'futures' ? 'futures' : 'spot';
  const balances = useBalances();
  const data = balances.data;
  const usdt = (value: string) => formatUsdt(value, i18n.language);

  return (
    <Page title={t('routes.Wallet')} backTo="/My">
      <section className="tw-card" aria-labelledby="wallet-total">
        <h2
          id="wallet-total"
          className="tw-muted"
          style={{ fontSize: 14, fontWeight: 400, margin: 0 }}
        >
          {t('wallet.total_assets')}
        </h2>
        {data ? (
          <>
            <p
              style={{ fontSize: 26, fontWeight: 700, margin: '6px 0 0' }}
              data-testid="wallet-total"
            >
              {usdt(data.totalUsdt)} <span style={{ fontSize: 14, fontWeight: 500 }}>USDT</span>
            </p>
            {data.unpricedAssets.length > 0 && (
              <p className="tw-muted" style={{ margin: '6px 0 0' }}>
                {t('wallet.unpriced', { assets: data.unpricedAssets.join(', ') })}
              </p>
            )}
          </>
        ) : (
          <Skeleton.Title animated />
        )}
        <div style={{ display: 'flex', gap: 8, marginTop: 14 }}>
          <Button size="small" color="primary" onClick={() => navigate('/Recharge')}>
            {t('routes.Recharge')}
          </Button>
          <Button size="small" onClick={() => navigate('/SelectCoin?next=Withdrawal')}>
            {t('routes.Withdrawal')}
          </Button>
          <Button size="small" onClick={() => navigate('/Transform?tab=transfer')}>
            {t('routes.Transform')}
          </Button>
        </div>
      </section>

      <Tabs activeKey={tab} onChange={(key) => setParams({ tab: key }, { replace: true })}>
        <Tabs.Tab key="spot" title={t('wallet.spot')} />
        <Tabs.Tab key="futures" title={t('wallet.futures')} />
      </Tabs>

      {balances.isError && (
        <ErrorBlock status="default" title={t('wallet.load_failed')} description="" />
      )}
      {!data && !balances.isError && <Skeleton.Paragraph lineCount={6} animated />}
      {data && tab === 'spot' && (
        <List
          style={{ borderRadius: 12, overflow: 'hidden', marginTop: 12 }}
          aria-label={t('wallet.spot')}
        >
          {data.spot.map((row) => (
            <SpotRow key={row.asset} row={row} />
          ))}
        </List>
      )}
      {data && tab === 'futures' && (
        <section className="tw-card" style={{ marginTop: 12 }} aria-label={t('wallet.futures')}>
          <dl className="tw-facts">
            <dt>{t('wallet.futures_total')}</dt>
            <dd data-testid="futures-total">{usdt(data.futures.total)} USDT</dd>
            <dt>{t('wallet.available')}</dt>
            <dd>{usdt(data.futures.available)} USDT</dd>
            <dt>{t('wallet.locked')}</dt>
            <dd>{usdt(data.futures.locked)} USDT</dd>
            <dt>{t('wallet.trading_assets')}</dt>
            <dd>{usdt(data.futures.tradingAssets)} USDT</dd>
            <dt>{t('wallet.floating_pnl')}</dt>
            <dd>{usdt(data.futures.floatingPnl)} USDT</dd>
          </dl>
          <Button
            block
            color="primary"
            style={{ marginTop: 12 }}
            onClick={() => navigate('/Transform?tab=transfer')}
          >
            {t('routes.Transform')}
          </Button>
        </section>
      )}
    </Page>
  );
}

function SpotRow({ row }: { row: SpotBalance }) {
  const { t, i18n } = useTranslation();
  const balance = (value: string) => formatBalance(value, row.asset, i18n.language);
  return (
    <List.Item
      prefix={<AssetIcon asset={row.asset} />}
      description={t('wallet.locked_amount', { amount: balance(row.locked) })}
      extra={
        <div style={{ textAlign: 'right' }}>
          <div style={{ color: 'var(--tw-text)', fontWeight: 600 }}>{balance(row.available)}</div>
          <div className="tw-muted">
            {row.valueUsdt === null ? '—' : `≈ ${formatUsdt(row.valueUsdt, i18n.language)} USDT`}
          </div>
        </div>
      }
      arrowIcon={false}
    >
      {row.asset}
    </List.Item>
  );
}
