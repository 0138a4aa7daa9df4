import { ERROR_CODES } from '@tradewind/contract/errors';
import {
  type ContractConfig,
  type Direction,
  type Order,
  placeOrderRequestSchema,
} from '@tradewind/contract/instant';
import type { Instrument } from '@tradewind/contract/market';
import { parseAmount } from '@tradewind/contract/money';
import { ApiError } from '@tradewind/http-client/api-error';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popup, Selector } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useNavigate } from '@/lib/router.tsx';
import { useBalances } from '@/api/balances.ts';
import { balancesQueryKey, orderQueryKey } from '@/api/query-keys.ts';
import { STAKE_SCALE, quoteOrder, ratePct } from '@/lib/contract-math.ts';
import { formatDecimal, formatPercent } from '@/lib/format.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { moneyPasswordPath } from '@/lib/money-password.ts';
import { formatPrice, pairName } from '@/ui/quote-list.tsx';
import { placeOrder } from '../api/place-order.ts';

interface Values {
  periodId?: number[];
  amount?: string;
  tradePassword?: string;
}

interface OrderPopupProps {
  instrument: Instrument;
  direction: Direction | null;
  config: ContractConfig;
  price: string | null;
  onClose: () => void;
  onPlaced: (order: Order) => void;
}

/**
 * The order popup: period with its payout rate, stake with its limits, and before the user
 * confirms, everything ARCHITECTURE §1 asks to disclose: fee, what a win pays, what a loss
 * costs, the break-even win rate, the tie rule and the void rule.
 */
export function OrderPopup({
  instrument,
  direction,
  config,
  price,
  onClose,
  onPlaced,
}: OrderPopupProps) {
  const { t } = useTranslation();
  return (
    <Popup
      visible={direction !== null}
      onMaskClick={onClose}
      onClose={onClose}
      destroyOnClose
      bodyClassName="tw-sheet"
      bodyStyle={{ maxHeight: '92vh', overflowY: 'auto' }}
      aria-label={t('trade.order_title')}
    >
      {direction && (
        <OrderForm
          instrument={instrument}
          direction={direction}
          config={config}
          price={price}
          onPlaced={onPlaced}
        />
      )}
    </Popup>
  );
}

function OrderForm({
  instrument,
  direction,
  config,
  price,
  onPlaced,
}: Omit<OrderPopupProps, 'onClose' | 'direction'> & { direction: Direction }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const balances = useBalances();
  const idempotency = useIdempotencyKey();
  const here = `/Detail?symbol=${instrument.symbol}`;
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    placeOrderRequestSchema,
    (request) =>
      placeOrder(request, idempotency.keyFor(request)).catch((error: unknown) => {
        // Terms changed since the popup opened: show the new ones; the message says to check them.
        if (error instanceof ApiError && error.code === ERROR_CODES.CONTRACT_TERMS_CHANGED)
          void queryClient.invalidateQueries({ queryKey: ['contracts', 'config'] });
        throw error;
      }),
    (result) => {
      idempotency.done();
      queryClient.setQueryData(balancesQueryKey, result.balances);
      queryClient.setQueryData(orderQueryKey(result.order.id), result.order);
      void queryClient.invalidateQueries({ queryKey: ['contracts', 'orders'] });
      onPlaced(result.order);
    },
  );
  const [firstPeriod] = config.periods;
  const periodIds: number[] | undefined = Form.useWatch('periodId', form);
  const amount: string = Form.useWatch('amount', form) ?? '';
  const period = config.periods.find((p) => p.id === periodIds?.[0]) ?? firstPeriod;
  const quote = period ? quoteOrder(amount, period) : null;
  const available = balances.data?.futures.available;
  const short =
    quote &&
    available !== undefined &&
    (parseAmount(quote.total, STAKE_SCALE) ?? 0n) > (parseAmount(available, STAKE_SCALE) ?? 0n);
  const fmt = (value: string, decimals = 2) => formatDecimal(value, i18n.language, decimals);

  const onFinish = async (values: Values) => {
    const chosen = config.periods.find((p) => p.id === values.periodId?.[0]);
    const stake = values.amount?.trim() ?? '';
    // The stake limits are checked here too, so the message sits under the field at once.
    const stakeMinor = parseAmount(stake, STAKE_SCALE);
    if (chosen && stakeMinor !== undefined && stakeMinor > 0n) {
      const min = parseAmount(chosen.minStake, STAKE_SCALE) ?? 0n;
      const max = parseAmount(chosen.maxStake, STAKE_SCALE) ?? 0n;
      if (stakeMinor < min || stakeMinor > max) {
        form.setFields([
          {
            name: 'amount',
            errors: [
              t('trade.stake_range', {
                min: fmt(chosen.minStake, 0),
                max: fmt(chosen.maxStake, 0),
              }),
            ],
          },
        ]);
        return;
      }
    }
    await submit({
      symbol: instrument.symbol,
      direction,
      periodId: chosen?.id,
      amount: stake,
      // The terms on screen: if an operator changed them meanwhile, the server refuses rather than applying the new ones.
      ...(chosen ? { terms: { payoutRate: chosen.payoutRate, feeRate: chosen.feeRate } } : {}),
      ...(config.tradePasswordRequired ? { tradePassword: values.tradePassword ?? '' } : {}),
    });
  };

  return (
    <div className="tw-order" data-direction={direction}>
      <header className="tw-order-head">
        <h2>
          {t(`trade.buy_${direction}`)} · {pairName(instrument)}
        </h2>
        <span className="tw-muted">
          {t('trade.current_price')}{' '}
          <strong data-testid="order-price">{formatPrice(price, instrument, i18n.language)}</strong>
        </span>
      </header>
      <Form
        form={form}
        layout="vertical"
        className="tw-flat-form"
        initialValues={{
          periodId: firstPeriod ? [firstPeriod.id] : [],
          amount: '',
          tradePassword: '',
        }}
        onFinish={onFinish}
        onValuesChange={clearEdited}
        onFinishFailed={() => undefined}
      >
        <Form.Item name="periodId" label={t('trade.period')}>
          <Selector
            columns={4}
            className="tw-periods"
            showCheckMark={false}
            options={config.periods.map((p) => ({
              value: p.id,
              label: t('trade.period_seconds', { seconds: p.seconds }),
              description: t('trade.payout_rate_short', { rate: fmt(ratePct(p.payoutRate), 0) }),
            }))}
            onChange={(value) =>
              value.length === 0 && period && form.setFieldsValue({ periodId: [period.id] })
            }
          />
        </Form.Item>
        <Form.Item
          label={
            <span className="tw-order-amount-label">
              {t('trade.amount')}
              {period && (
                <span className="tw-muted">
                  {t('trade.stake_limits', {
                    min: fmt(period.minStake, 0),
                    max: fmt(period.maxStake, 0),
                  })}
                </span>
              )}
            </span>
          }
          name="amount"
          description={
            <span className="tw-muted">
              {t('trade.available', { amount: available !== undefined ? fmt(available) : '—' })}
              {config.dailyLossLimit !== null && (
                <>
                  <br />
                  {t('trade.loss_limit', {
                    used: fmt(config.lossToday),
                    limit: fmt(config.dailyLossLimit),
                  })}
                </>
              )}
              {short && (
                <>
                  {' · '}
                  <Link to="/Transform?tab=transfer" className="tw-link">
                    {t('trade.transfer_in')}
                  </Link>
                </>
              )}
            </span>
          }
        >
          <Input
            inputMode="decimal"
            placeholder={t('trade.amount_placeholder')}
            aria-label={t('trade.amount')}
            clearable
          />
        </Form.Item>
        {!config.tradePasswordRequired && (
          // Spec §5, §8: no order before a trading password is set; the user is sent to set it.
          <div className="tw-order-notice" role="alert" data-testid="trade-password-missing">
            <p>{t('trade.trade_password_not_set')}</p>
            <Button
              size="small"
              color="primary"
              onClick={() => navigate(moneyPasswordPath('trade', here))}
            >
              {t('trade.trade_password_set')}
            </Button>
          </div>
        )}
        {config.tradePasswordRequired && (
          <Form.Item
            name="tradePassword"
            label={t('trade.trade_password')}
            extra={
              <Button
                size="small"
                fill="none"
                color="primary"
                onClick={() => navigate(moneyPasswordPath('trade', here))}
              >
                {t('trade.trade_password_forgot')}
              </Button>
            }
          >
            <Input
              type="password"
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              placeholder={t('trade.trade_password_placeholder')}
              aria-label={t('trade.trade_password')}
              clearable
            />
          </Form.Item>
        )}
      </Form>
      {period && (
        <dl className="tw-order-figures" data-testid="order-figures">
          <dt>{t('trade.payout_rate')}</dt>
          <dd>{formatPercent(ratePct(period.payoutRate), i18n.language)}</dd>
          <dt>{t('trade.fee', { rate: fmt(ratePct(period.feeRate), 0) })}</dt>
          <dd data-testid="order-fee">{quote ? `${fmt(quote.fee)} USDT` : '—'}</dd>
          <dt>{t('trade.total_locked')}</dt>
          <dd>{quote ? `${fmt(quote.total)} USDT` : '—'}</dd>
          <dt>{t('trade.payout_on_win')}</dt>
          <dd className="tw-up" data-testid="order-payout">
            {quote ? `${fmt(quote.payoutOnWin)} USDT` : '—'}
            {quote && <small>{t('trade.profit_on_win', { amount: fmt(quote.profitOnWin) })}</small>}
          </dd>
          <dt>{t('trade.on_loss')}</dt>
          <dd className="tw-down">{quote ? `−${fmt(quote.lossOnLoss)} USDT` : '—'}</dd>
          <dt>{t('trade.break_even')}</dt>
          <dd data-testid="order-break-even">
            {formatPercent(period.breakEvenWinRatePct, i18n.language, 2)}
          </dd>
        </dl>
      )}
      <ul className="tw-order-rules">
        <li>{t(`trade.rule_${direction}`)}</li>
        <li>{t('trade.rule_tie')}</li>
        <li>{t('trade.rule_void')}</li>
        {period && (
          <li>{t('trade.rule_break_even', { rate: fmt(period.breakEvenWinRatePct, 2) })}</li>
        )}
      </ul>
      {/* Confirm comes after the figures and the rules: the user reads them before ordering. */}
      <Button
        block
        size="large"
        className="tw-order-confirm"
        data-direction={direction}
        loading={submitting}
        disabled={!quote || !config.tradePasswordRequired}
        onClick={() => form.submit()}
      >
        {t(`trade.confirm_${direction}`)}
      </Button>
    </div>
  );
}
