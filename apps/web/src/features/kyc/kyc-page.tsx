import { useQueryClient } from '@tanstack/react-query';
import type { KycOverview } from '@tradewind/contract/kyc';
import { Button, ErrorBlock, Skeleton } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { kycQueryKey, useKyc } from './api/get-kyc.ts';
import { type KycFormValues, KycForm } from './components/kyc-form.tsx';
import { KycStatus } from './components/kyc-status.tsx';

/** /RealName: the verification form, or where the latest submission stands. */
export function RealNamePage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const kyc = useKyc();
  const [resubmitting, setResubmitting] = useState(false);

  const onSubmitted = (overview: KycOverview) => {
    queryClient.setQueryData(kycQueryKey, overview);
    setResubmitting(false);
    window.scrollTo(0, 0);
    showToast({ content: t('kyc.form.submitted'), duration: 2000 });
  };

  let content;
  if (kyc.isPending) {
    content = (
      <div className="tw-card">
        <Skeleton.Title animated />
        <Skeleton.Paragraph lineCount={4} animated />
      </div>
    );
  } else if (kyc.isError) {
    content = (
      <ErrorBlock status="default" title={t('common.network_error')} description="">
        <Button color="primary" onClick={() => void kyc.refetch()}>
          {t('kyc.retry')}
        </Button>
      </ErrorBlock>
    );
  } else if (kyc.data.state === 'none' || (kyc.data.state === 'rejected' && resubmitting)) {
    const last = kyc.data.submission;
    const initial: KycFormValues | undefined = last
      ? {
          country: last.country,
          lastName: last.lastName,
          firstName: last.firstName,
          documentType: last.documentType,
          documentNumber: last.documentNumber,
        }
      : undefined;
    content = (
      <>
        <p className="tw-muted" style={{ margin: '0 4px 12px' }}>
          {t('kyc.form.intro')}
        </p>
        <div className="tw-card" style={{ padding: '4px 0 16px' }}>
          <KycForm initial={initial} onSubmitted={onSubmitted} />
        </div>
      </>
    );
  } else {
    content = <KycStatus overview={kyc.data} onResubmit={() => setResubmitting(true)} />;
  }

  return (
    <Page title={t('routes.RealName')} backTo="/My">
      {content}
    </Page>
  );
}
