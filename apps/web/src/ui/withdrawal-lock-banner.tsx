import type { WithdrawalLock } from '@tradewind/contract/security';
import { LockOutline } from 'antd-mobile-icons';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime } from '@/lib/format.ts';

/**
 * Withdrawals are paused for 24 h after the password or two-factor changed: says until
 * when (in the user's own time zone) and why. Shown on the security and withdrawal screens.
 */
export function WithdrawalLockBanner({ lock }: { lock: WithdrawalLock }) {
  const { t, i18n } = useTranslation();
  if (!lock) return null;
  const text = t('errors.WITHDRAWALS_LOCKED', {
    until: formatDateTime(lock.until, i18n.language),
    reason: t(`security.lock_reason.${lock.reason}`),
  });
  return (
    <section
      className="tw-card"
      role="alert"
      data-testid="withdrawal-lock"
      style={{
        background: 'var(--tw-warning-bg)',
        border: '1px solid var(--tw-warning-border)',
        display: 'flex',
        gap: 8,
        fontSize: 14,
        color: 'var(--tw-warning-text)',
        lineHeight: 1.5,
      }}
    >
      <LockOutline style={{ flex: 'none', marginTop: 3 }} aria-hidden />
      <span>{text}</span>
    </section>
  );
}
