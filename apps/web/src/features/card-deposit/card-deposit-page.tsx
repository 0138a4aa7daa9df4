import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, NoticeBar, Skeleton } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { useBalances } from './api/get-balances.ts';
import { useCardDepositConfig } from './api/get-config.ts';
import { cardDepositsQueryKey } from './api/get-deposits.ts';
import { DepositForm } from './components/deposit-form.tsx';
import { DepositHistory } from './components/deposit-history.tsx';
import { PayeeCard } from './components/payee-card.tsx';

/** /RechargeCard: pay the account shown, report the payment with a screenshot, follow its status. */
export function RechargeCardPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const config = useCardDepositConfig();
  const balances = useBalances();
  const balance = balances.data?.spot.find((s) => s.asset === 'USDT')?.available;
  const [round, setRound] = useState(0);

  let content;
  if (config.isPending) {
    content = (
      <div className="tw-card">
        <Skeleton.Title animated />
        <Skeleton.Paragraph lineCount={5} animated />
      </div>
    );
  } else if (config.isError) {
    content = (
      <ErrorBlock status="default" title={t('common.network_error')} description="">
        <Button color="primary" onClick={() => void config.refetch()}>
          {t('card_deposit.retry')}
        </Button>
      </ErrorBlock>
    );
  } else if (!config.data.available || !config.data.payee) {
    content = (
      <ErrorBlock
        status="empty"
        title={t('card_deposit.unavailable')}
        description={t('card_deposit.unavailable_note')}
      />
    );
  } else {
    content = (
      <>
        {config.data.demo && (
          <NoticeBar
            content={t('card_deposit.demo_notice')}
            color="alert"
            wrap
            style={{ borderRadius: 12, marginBottom: 12 }}
          />
        )}
        <PayeeCard payee={config.data.payee} />
        <DepositForm
          key={round}
          config={config.data}
          balance={balance}
          onCreated={() => {
            setRound((r) => r + 1);
            void queryClient.invalidateQueries({ queryKey: cardDepositsQueryKey });
            showToast({ content: t('card_deposit.submitted'), duration: 2000 });
          }}
        />
        <DepositHistory />
      </>
    );
  }

  return (
    <Page title={t('routes.RechargeCard')} backTo="/">
      {content}
    </Page>
  );
}
