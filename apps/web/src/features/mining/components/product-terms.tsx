import type { MiningProduct } from '@tradewind/contract/mining';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDecimal, formatPercent } from '@/lib/format.ts';
import { ratePercent } from '../amounts.ts';

/** A miner's terms as a grid of label and value (spec: output, computing power, power, period, minimum, daily yield). */
export function ProductTerms({ product }: { product: MiningProduct }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const terms: [string, string][] = [
    [t('mining.output'), product.output],
    [t('mining.hashrate'), product.hashrate],
    [t('mining.power'), product.power],
    [t('mining.period'), t('mining.days', { count: product.periodDays })],
    [t('mining.min_investment'), `${formatDecimal(product.minInvestment, lang)} USDT`],
    [t('mining.daily_rate'), formatPercent(ratePercent(product.dailyRate), lang)],
  ];
  return (
    <dl className="tw-mining-terms">
      {terms.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
