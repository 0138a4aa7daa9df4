import {
  DOCUMENT_TYPE_LABELS,
  KYC_STATUS_LABELS,
  type KycOverview,
  type KycSubmission,
} from '@tradewind/contract/kyc';
import { Button, Image, List, Result } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime } from '@/lib/format.ts';
import { usePhoto } from '../api/get-photo.ts';
import { useCountries } from './country-field.tsx';

function Photo({ id, label }: { id: string | null; label: string }) {
  const photo = usePhoto(id);
  if (id === null) return null;
  return (
    <figure style={{ margin: 0, flex: 1, minWidth: 0 }}>
      {photo.data ? (
        <Image
          src={photo.data}
          alt={label}
          fit="cover"
          height={72}
          style={{ borderRadius: 8, background: 'var(--tw-fill-strong)' }}
          lazy={false}
        />
      ) : (
        <div
          style={{ height: 72, borderRadius: 8, background: 'var(--tw-fill-strong)' }}
          aria-busy={photo.isPending}
        />
      )}
      <figcaption
        className="tw-muted"
        style={{ marginTop: 4, fontSize: 12, textAlign: 'center', overflowWrap: 'anywhere' }}
      >
        {label}
      </figcaption>
    </figure>
  );
}

/** Only the end of a document number is shown back. */
const masked = (number: string) => (number.length > 4 ? `•••• ${number.slice(-4)}` : number);

function Summary({ submission }: { submission: KycSubmission }) {
  const { t, i18n } = useTranslation();
  const countries = useCountries();
  const country = countries.find((c) => c.code === submission.country)?.name ?? submission.country;
  return (
    <section className="tw-card" aria-label={t('kyc.status.summary')}>
      <List
        style={{
          '--border-top': 'none',
          '--border-bottom': 'none',
          '--padding-left': '0',
          '--padding-right': '0',
        }}
      >
        <List.Item extra={`${submission.lastName} ${submission.firstName}`}>
          {t('kyc.form.name')}
        </List.Item>
        <List.Item extra={country}>{t('kyc.form.country')}</List.Item>
        <List.Item
          extra={`${t(DOCUMENT_TYPE_LABELS[submission.documentType])} ${masked(submission.documentNumber)}`}
        >
          {t('kyc.form.document')}
        </List.Item>
        <List.Item extra={formatDateTime(submission.createdAt, i18n.language)}>
          {t('kyc.status.submitted_at')}
        </List.Item>
        {submission.decidedAt && (
          <List.Item extra={formatDateTime(submission.decidedAt, i18n.language)}>
            {t('kyc.status.decided_at')}
          </List.Item>
        )}
      </List>
      <div style={{ display: 'flex', gap: 8, marginTop: 12 }}>
        <Photo
          id={submission.frontFileId}
          label={t(
            submission.documentType === 'passport' ? 'kyc.form.front_passport' : 'kyc.form.front',
          )}
        />
        <Photo id={submission.backFileId} label={t('kyc.form.back')} />
        <Photo id={submission.faceFileId} label={t('kyc.form.face')} />
      </div>
    </section>
  );
}

/** Under review, passed, or failed with the reason and a way to send new documents. */
export function KycStatus({
  overview,
  onResubmit,
}: {
  overview: KycOverview;
  onResubmit: () => void;
}) {
  const { t } = useTranslation();
  const submission = overview.submission;
  const state = overview.state === 'none' ? 'pending' : overview.state;
  const result = {
    pending: { status: 'waiting' as const, description: t('kyc.status.pending_note') },
    approved: { status: 'success' as const, description: t('kyc.status.approved_note') },
    rejected: { status: 'error' as const, description: t('kyc.status.rejected_note') },
  }[state];
  return (
    <>
      <section className="tw-card" style={{ padding: 0, overflow: 'hidden' }} aria-live="polite">
        <Result
          status={result.status}
          title={t(KYC_STATUS_LABELS[state])}
          description={result.description}
        />
        {state === 'rejected' && (
          <div style={{ padding: '0 16px 16px' }}>
            <div className="tw-reason" role="note">
              <strong>{t('kyc.status.reason')}</strong>
              <p style={{ margin: '4px 0 0', overflowWrap: 'anywhere' }}>{submission?.reason}</p>
            </div>
            <Button
              block
              color="primary"
              size="large"
              style={{ marginTop: 16 }}
              onClick={onResubmit}
            >
              {t('kyc.status.resubmit')}
            </Button>
          </div>
        )}
      </section>
      {submission && <Summary submission={submission} />}
    </>
  );
}
