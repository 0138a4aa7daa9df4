import type { Payee } from '@tradewind/contract/card-deposit';
import { FileOutline } from 'antd-mobile-icons';
import { useTranslation } from '@/lib/i18n.ts';
import { showToast } from '@/ui/toast.ts';

/** spec §3 Card deposit: bank name, card number, payee, payee phone; each can be copied. */
export function PayeeCard({ payee }: { payee: Payee }) {
  const { t } = useTranslation();
  const rows: { key: string; value: string }[] = [
    { key: 'bank', value: payee.bank },
    { key: 'card_number', value: payee.cardNumber },
    { key: 'payee', value: payee.name },
    { key: 'payee_phone', value: payee.phone },
  ];
  const copy = async (value: string) => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    showToast({ content: t('success.copied'), duration: 2000 });
  };
  return (
    <section className="tw-card" aria-labelledby="payee-title">
      <h2 id="payee-title" className="tw-step">
        <span className="tw-step-number">1</span>
        {t('card_deposit.payee_title')}
      </h2>
      <p className="tw-muted" style={{ margin: '0 0 8px' }}>
        {t('card_deposit.payee_note')}
      </p>
      <dl style={{ margin: 0 }}>
        {rows.map((row) => (
          // A <dl> group holds only its <dt> and <dd>, so the copy button sits inside the <dd>.
          <div key={row.key} className="tw-field-row tw-field-row-dl">
            <dt className="tw-muted">{t(`card_deposit.${row.key}`)}</dt>
            <dd>
              <span style={{ minWidth: 0, flex: 1, fontWeight: 600, overflowWrap: 'anywhere' }}>
                {row.value}
              </span>
              <button
                type="button"
                className="tw-icon-button"
                onClick={() => void copy(row.value)}
                aria-label={t('card_deposit.copy', { field: t(`card_deposit.${row.key}`) })}
              >
                <FileOutline aria-hidden />
              </button>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
