import { useQueryClient } from '@tanstack/react-query';
import type { BankCard } from '@tradewind/contract/bank-card';
import { Button, ErrorBlock, Skeleton } from 'antd-mobile';
import { AddOutline, BankcardOutline, DeleteOutline } from 'antd-mobile-icons';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { confirm } from '@/ui/confirm.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { deleteBankCard } from './api/delete-bank-card.ts';
import { bankCardsQueryKey, useBankCards } from './api/get-bank-cards.ts';

const CARD_STYLE = {
  background: 'linear-gradient(135deg, #1652f0 0%, #0b2f8f 100%)',
  color: '#fff',
  borderRadius: 12,
  padding: 16,
  marginBottom: 12,
} as const;

function CardItem({ card, onDelete }: { card: BankCard; onDelete: (card: BankCard) => void }) {
  const { t } = useTranslation();
  return (
    <li style={CARD_STYLE}>
      <div
        style={{
          display: 'flex',
          alignItems: 'flex-start',
          justifyContent: 'space-between',
          gap: 8,
        }}
      >
        <div style={{ minWidth: 0 }}>
          <div style={{ fontSize: 16, fontWeight: 600, overflowWrap: 'anywhere' }}>
            {card.bankName}
          </div>
          <div style={{ fontSize: 13, opacity: 0.85, overflowWrap: 'anywhere' }}>
            {card.branchName} · {card.branchCode}
          </div>
        </div>
        <Button
          size="mini"
          fill="none"
          onClick={() => onDelete(card)}
          aria-label={t('bank_card.delete_named', {
            bank: card.bankName,
            account: card.accountMasked,
          })}
          style={{ color: '#fff' }}
        >
          <DeleteOutline fontSize={18} />
        </Button>
      </div>
      <div
        style={{
          fontSize: 20,
          letterSpacing: 2,
          margin: '14px 0 6px',
          fontVariantNumeric: 'tabular-nums',
        }}
      >
        {card.accountMasked}
      </div>
      <div style={{ fontSize: 13, opacity: 0.85, overflowWrap: 'anywhere' }}>{card.holderName}</div>
    </li>
  );
}

/** /Card: the linked bank cards (at most 5), unlink one, add another. */
export function CardListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const cards = useBankCards();
  const items = cards.data?.items ?? [];
  const max = cards.data?.max ?? 5;
  const full = items.length >= max;

  const onDelete = async (card: BankCard) => {
    const confirmed = await confirm({
      content: t('bank_card.delete_confirm', { bank: card.bankName, account: card.accountMasked }),
      confirmText: t('bank_card.delete'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    try {
      await deleteBankCard(card.id);
      showToast({ content: t('success.operation'), duration: 2000 });
      await queryClient.invalidateQueries({ queryKey: bankCardsQueryKey });
    } catch {
      // The client already showed the reason.
    }
  };

  return (
    <Page title={t('routes.Card')} backTo="/My">
      {cards.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={4} animated />
        </div>
      ) : cards.isError && items.length === 0 ? (
        <div className="tw-card">
          <LoadFailed
            error={cards.error}
            onRetry={() => void cards.refetch()}
            retrying={cards.isFetching}
          />
        </div>
      ) : items.length === 0 ? (
        <div className="tw-card">
          <ErrorBlock
            status="empty"
            image={<BankcardOutline fontSize={64} color="var(--tw-muted)" />}
            title={t('bank_card.empty_title')}
            description={t('bank_card.empty_description')}
          />
        </div>
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('routes.Card')}>
          {items.map((card) => (
            <CardItem key={card.id} card={card} onDelete={onDelete} />
          ))}
        </ul>
      )}
      <Button
        block
        color="primary"
        size="large"
        disabled={full || cards.isPending}
        onClick={() => navigate('/AddCard')}
        style={{ marginTop: 4 }}
      >
        <AddOutline /> {t('routes.AddCard')}
      </Button>
      <p className="tw-muted" style={{ textAlign: 'center' }}>
        {full
          ? t('bank_card.limit_reached', { max })
          : t('bank_card.count', { linked: items.length, max })}
      </p>
    </Page>
  );
}
