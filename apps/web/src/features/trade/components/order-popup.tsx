import { ERROR_CODES } from '@tradewind/contract/errors';
import {
  type ContractConfig,
  type Direction,
  type Order,
  placeOrderRequestSchema,
} from '@tradewind/contract/instant';
import type { Instrument } from '@tradewind/contract/market';
import { ApiError } from '@tradewind/http-client/api-error';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popup, Selector } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useNavigate } from '@/lib/router.tsx';
import { useBalances } from '@/api/balances.ts';
import { balancesQueryKey, orderQueryKey } from '@/api/query-keys.ts';
import { compareDecimal, quoteOrder, ratePct } from '@/lib/contract-math.ts';
import { formatDecimal, formatPercent } from '@/lib/format.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { moneyPasswordPath } from '@/lib/money-password.ts';
import { formatPrice, pairName } from '@/ui/quote-list.tsx';
import { placeOrder } from '../api/place-order.ts';
import {
  type OrderBlocker,
  QUICK_PERCENTS,
  lossLimitRoom,
  maxStake,
  orderBlockers,
  quickStake,
} from '../order-amounts.ts';

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
      bodyClassName="tw-sheet tw-order-sheet"
      aria-label={t('trade.order_title')}
    >
      {direction && (
        <OrderForm
          instrument={instrument}
          direction={direction}
          config={config}
          price={price}
          onClose={onClose}
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
  onClose,
  onPlaced,
}: Omit<OrderPopupProps, 'direction'> & { direction: Direction }) {
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
  const futures = balances.data?.futures;
  const available = futures?.available;
  const lossRoom = futures
    ? lossLimitRoom(config.dailyLossLimit, config.lossToday, futures.locked)
    : null;
  const blockers = orderBlockers({
    tradable: instrument.tradable,
    price,
    period,
    tradePasswordSet: config.tradePasswordRequired,
    amount,
    available,
    lossRoom,
  });
  // The trading password has its own notice with the way to set it; the line under the amount says the rest.
  const reason = blockers.find((b) => b.kind !== 'trade_password_not_set');
  const max = available !== undefined && period ? maxStake(available, period, lossRoom) : null;
  // Too little in the futures account for this amount, or for any: the way to move funds in.
  const short =
    reason?.kind === 'insufficient' ||
    (available !== undefined && period !== undefined && maxStake(available, period) === null);
  const fmt = (value: string, decimals = 2) => formatDecimal(value, i18n.language, decimals);

  const setAmount = (value: string) => {
    form.setFieldsValue({ amount: value });
    clearEdited({ amount: value });
  };

  const onFinish = async (values: Values) => {
    // Enter in the amount field submits the form too: nothing is sent while a reason stands.
    if (blockers.length > 0) return;
    const chosen = config.periods.find((p) => p.id === values.periodId?.[0]);
    await submit({
      symbol: instrument.symbol,
      direction,
      periodId: chosen?.id,
      amount: values.amount?.trim() ?? '',
      // The terms on screen: if an operator changed them meanwhile, the server refuses rather than applying the new ones.
      ...(chosen ? { terms: { payoutRate: chosen.payoutRate, feeRate: chosen.feeRate } } : {}),
      ...(config.tradePasswordRequired ? { tradePassword: values.tradePassword ?? '' } : {}),
    });
  };

  const why = (blocker: OrderBlocker): string => {
    switch (blocker.kind) {
      case 'amount_empty':
        return t('trade.why.amount_empty', { min: fmt(blocker.min, 0), max: fmt(blocker.max, 0) });
      case 'amount_decimals':
        return t('trade.why.amount_decimals', { decimals: blocker.decimals });
      case 'below_min':
        return t('trade.why.below_min', { min: fmt(blocker.min, 0) });
      case 'above_max':
        return t('trade.why.above_max', { max: fmt(blocker.max, 0) });
      case 'loss_limit':
        return t('trade.why.loss_limit', { room: fmt(blocker.room) });
      case 'insufficient':
        return t('trade.why.insufficient', {
          total: fmt(blocker.total),
          available: fmt(blocker.available),
        });
      default:
        return t(`trade.why.${blocker.kind}`);
    }
  };

  return (
    <div className="tw-order" data-direction={direction}>
      <header className="tw-order-head">
        <div className="tw-order-title">
          <h2>
            {t(`trade.buy_${direction}`)} · {pairName(instrument)}
          </h2>
          <button
            type="button"
            className="tw-order-close"
            aria-label={t('trade.close')}
            onClick={onClose}
          >
            <CloseOutline aria-hidden />
          </button>
        </div>
        <LivePrice price={price} instrument={instrument} language={i18n.language} />
      </header>
      <div className="tw-order-body">
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
              <>
                {reason && (
                  <span
                    className="tw-order-reason"
                    data-testid="order-reason"
                    data-reason={reason.kind}
                    role="status"
                  >
                    {why(reason)}
                  </span>
                )}
                <span className="tw-muted tw-order-available">
                  {t('trade.available', {
                    amount: available !== undefined ? fmt(available) : '—',
                  })}
                  {short && (
                    <>
                      {' · '}
                      <Link to="/Transform?tab=transfer" className="tw-link">
                        {t('trade.transfer_in')}
                      </Link>
                    </>
                  )}
                  {config.dailyLossLimit !== null && (
                    <>
                      <br />
                      {t('trade.loss_limit', {
                        used: fmt(config.lossToday),
                        limit: fmt(config.dailyLossLimit),
                      })}
                    </>
                  )}
                </span>
              </>
            }
          >
            <Input
              inputMode="decimal"
              placeholder={t('trade.amount_placeholder')}
              aria-label={t('trade.amount')}
              clearable
            />
          </Form.Item>
          <div className="tw-order-quick" role="group" aria-label={t('trade.quick_amounts')}>
            {QUICK_PERCENTS.map((percent) => (
              <button
                key={percent}
                type="button"
                disabled={available === undefined || !period}
                onClick={() =>
                  available !== undefined &&
                  period &&
                  setAmount(quickStake(available, percent, period.feeRate))
                }
              >
                {formatPercent(String(percent), i18n.language)}
              </button>
            ))}
            <button
              type="button"
              disabled={max === null}
              onClick={() => max !== null && setAmount(max)}
            >
              {t('trade.quick_max')}
            </button>
          </div>
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
            <dd data-testid="order-total">{quote ? `${fmt(quote.total)} USDT` : '—'}</dd>
            <dt>{t('trade.payout_on_win')}</dt>
            <dd className="tw-up" data-testid="order-payout">
              {quote ? `${fmt(quote.payoutOnWin)} USDT` : '—'}
              {quote && (
                <small>{t('trade.profit_on_win', { amount: fmt(quote.profitOnWin) })}</small>
              )}
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
      </div>
      {/* The sheet's footer: Confirm stays in view on a short screen while the terms above scroll. */}
      <footer className="tw-order-footer">
        <Button
          block
          size="large"
          className="tw-order-confirm"
          data-direction={direction}
          loading={submitting}
          disabled={blockers.length > 0}
          onClick={() => form.submit()}
        >
          {t(`trade.confirm_${direction}`)}
        </Button>
      </footer>
    </div>
  );
}

/**
 * The price the order would open at: the page's live ticker, tinted by its last move. The
 * server opens the order at the latest recorded tick when it accepts it, so this is the
 * price as of now, not a promise.
 */
function LivePrice({
  price,
  instrument,
  language,
}: {
  price: string | null;
  instrument: Instrument;
  language: string;
}) {
  const { t } = useTranslation();
  const [seen, setSeen] = useState<{ price: string | null; trend: number }>({ price, trend: 0 });
  if (seen.price !== price) {
    setSeen({
      price,
      trend: price !== null && seen.price !== null ? compareDecimal(price, seen.price) : 0,
    });
  }
  return (
    <p className="tw-order-price">
      <span className="tw-muted">{t('trade.opening_price_live')}</span>
      <strong data-testid="order-price" data-trend={seen.trend}>
        {formatPrice(price, instrument, language)}
      </strong>
    </p>
  );
}
