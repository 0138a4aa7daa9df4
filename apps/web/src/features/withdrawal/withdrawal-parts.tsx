import { formatAmount, parseAmount } from '@tradewind/contract/money';
import type { WithdrawalOptions } from '@tradewind/contract/withdrawal';
import { Button, Form, Input } from 'antd-mobile';
import {
  ClockCircleOutline,
  ExclamationCircleOutline,
  UnorderedListOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { formatDecimal } from '@/lib/format.ts';
import { moneyPasswordPath } from '@/lib/money-password.ts';
import { WithdrawalLockBanner } from '@/ui/withdrawal-lock-banner.tsx';

type AssetOption = WithdrawalOptions['assets'][number];

/** What still stands between the user and a withdrawal (spec §5), each with the way to fix it. */
export function Readiness({ options, back }: { options: WithdrawalOptions; back: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const steps: { key: string; text: string; action: string; to: string }[] = [];
  if (!options.verified)
    steps.push({
      key: 'kyc',
      text: t('errors.KYC_REQUIRED'),
      action: t('withdrawal.verify_now'),
      to: '/RealName',
    });
  if (!options.withdrawPasswordSet)
    steps.push({
      key: 'pin',
      text: t('errors.WITHDRAW_PASSWORD_NOT_SET'),
      action: t('withdrawal.set_password_now'),
      to: moneyPasswordPath('withdraw', back),
    });
  if (steps.length === 0) return <WithdrawalLockBanner lock={options.withdrawalLock} />;
  return (
    <>
      <WithdrawalLockBanner lock={options.withdrawalLock} />
      <section
        className="tw-card"
        role="alert"
        style={{ background: 'var(--tw-warning-bg)', border: '1px solid var(--tw-warning-border)' }}
      >
        {steps.map((step) => (
          <div
            key={step.key}
            style={{
              display: 'flex',
              alignItems: 'center',
              gap: 8,
              justifyContent: 'space-between',
              padding: '4px 0',
            }}
          >
            <span
              style={{
                display: 'flex',
                gap: 6,
                alignItems: 'flex-start',
                fontSize: 14,
                color: 'var(--tw-warning-text)',
              }}
            >
              <ExclamationCircleOutline style={{ flex: 'none', marginTop: 2 }} aria-hidden />
              {step.text}
            </span>
            <Button
              size="mini"
              color="warning"
              onClick={() => navigate(step.to)}
              style={{ flex: 'none' }}
            >
              {step.action}
            </Button>
          </div>
        ))}
      </section>
    </>
  );
}

/** amount + fee, as the ledger will lock them; undefined while the amount is not a valid number for the asset. */
export function totals(asset: AssetOption, amountText: string | undefined) {
  const amount = amountText ? parseAmount(amountText.trim(), asset.decimals) : undefined;
  const fee = parseAmount(asset.fee, asset.decimals) ?? 0n;
  if (amount === undefined) return { fee, amount: undefined, total: undefined };
  return { fee, amount, total: amount + fee };
}

/** The largest amount whose amount + fee fits the available balance, or undefined. */
export function maxAmount(asset: AssetOption): string | undefined {
  const available = parseAmount(asset.available, asset.decimals) ?? 0n;
  const fee = parseAmount(asset.fee, asset.decimals) ?? 0n;
  return available > fee ? formatAmount(available - fee, asset.decimals) : undefined;
}

function Row({
  label,
  children,
  strong = false,
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
}) {
  return (
    <div
      style={{
        display: 'flex',
        justifyContent: 'space-between',
        gap: 12,
        padding: '3px 0',
        fontSize: 14,
      }}
    >
      <span className="tw-muted" style={{ fontSize: 14 }}>
        {label}
      </span>
      <span
        style={{ fontWeight: strong ? 600 : 400, textAlign: 'right', overflowWrap: 'anywhere' }}
      >
        {children}
      </span>
    </div>
  );
}

/** Fee, what arrives and what leaves the balance, shown before the user confirms. */
export function AmountSummary({
  asset,
  amountText,
}: {
  asset: AssetOption;
  amountText: string | undefined;
}) {
  const { t } = useTranslation();
  const { fee, amount, total } = totals(asset, amountText);
  const show = (minor: bigint | undefined) =>
    minor === undefined ? '—' : `${formatAmount(minor, asset.decimals)} ${asset.asset}`;
  return (
    <div aria-live="polite" style={{ padding: '4px 0 8px' }}>
      <Row label={t('withdrawal.fee')}>{show(fee)}</Row>
      <Row label={t('withdrawal.receive')} strong>
        {show(amount)}
      </Row>
      <Row label={t('withdrawal.total')}>{show(total)}</Row>
    </div>
  );
}

/** The amount field, with the balance, the minimum and a "max" that leaves room for the fee. */
export function AmountField({
  asset,
  onMax,
}: {
  asset: AssetOption;
  onMax: (amount: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const max = maxAmount(asset);
  return (
    <Form.Item
      name="amount"
      label={t('withdrawal.amount')}
      description={t('withdrawal.amount_help', {
        available: formatDecimal(asset.available, i18n.language),
        min: asset.minAmount,
        asset: asset.asset,
      })}
      extra={
        <Button
          size="small"
          fill="none"
          color="primary"
          disabled={!max}
          onClick={() => {
            if (max) onMax(max);
          }}
        >
          {t('withdrawal.max')}
        </Button>
      }
    >
      <Input
        inputMode="decimal"
        autoComplete="off"
        placeholder={t('withdrawal.amount_placeholder', { min: asset.minAmount })}
        clearable
      />
    </Form.Item>
  );
}

/** The withdrawal password (6 digits), with the way to set or change it. */
export function PasswordField({ back }: { back: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Form.Item
      name="password"
      label={t('withdrawal.password')}
      extra={
        <Button
          size="small"
          fill="none"
          color="primary"
          onClick={() => navigate(moneyPasswordPath('withdraw', back))}
        >
          {t('withdrawal.password_forgot')}
        </Button>
      }
    >
      <Input
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={6}
        placeholder={t('withdrawal.password_placeholder')}
        clearable
      />
    </Form.Item>
  );
}

/** With two-factor on (security centre), every withdrawal carries a fresh authenticator code. */
export function TotpField({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  if (!enabled) return null;
  return (
    <Form.Item
      name="totpCode"
      label={t('withdrawal.totp_code')}
      description={t('withdrawal.totp_help')}
    >
      <Input
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder="000000"
        clearable
      />
    </Form.Item>
  );
}

/** spec §9 and ARCHITECTURE §1, said before the user sends anything. */
export function ArrivalNotice({ hours }: { hours: number }) {
  const { t } = useTranslation();
  return (
    <section className="tw-card" style={{ fontSize: 13, lineHeight: 1.5 }}>
      <p style={{ margin: 0, display: 'flex', gap: 6 }}>
        <ClockCircleOutline
          style={{ flex: 'none', marginTop: 3, color: 'var(--tw-primary)' }}
          aria-hidden
        />
        <span>{t('withdrawal.arrival', { hours })}</span>
      </p>
      <p className="tw-muted" style={{ margin: '8px 0 0' }}>
        {t('withdrawal.frozen_note')}
      </p>
      <p className="tw-muted" style={{ margin: '8px 0 0' }}>
        {t('withdrawal.never_pay')}
      </p>
    </section>
  );
}

/** The history button in the title bar. */
export function HistoryLink() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button
      fill="none"
      size="small"
      onClick={() => navigate('/WithdrawalHistory')}
      aria-label={t('routes.WithdrawalHistory')}
      style={{ padding: 4 }}
    >
      <UnorderedListOutline fontSize={22} />
    </Button>
  );
}
