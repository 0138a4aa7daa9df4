import type { DocumentType } from '@tradewind/contract/kyc';
import { Typography } from 'antd';
import { defineStrings, useLanguage } from '@/lib/i18n.ts';
import { ReviewQueue } from '@/ui/review-queue.tsx';
import { useDecideKyc } from './api/decide-kyc.ts';
import { useKycQueue } from './api/get-kyc-queue.ts';

const useT = defineStrings({
  en: {
    intro:
      'Pending submissions, oldest first. Compare the name and number with the document and the face photo.',
    submitted: 'Submitted',
    name: 'Name',
    country: 'Country',
    document: 'Document',
    number: 'Document number',
    front: 'Front',
    back: 'Back',
    face: 'Face',
    photos: 'Photos',
    id_card: 'ID card',
    passport: 'Passport',
    driving_licence: 'Driving licence',
    drawer: 'Verification #{id}',
  },
  'zh-CN': {
    intro: '待审核的提交，最早的在前。请将姓名和证件号码与证件照片和人脸照片核对。',
    submitted: '提交时间',
    name: '姓名',
    country: '国家/地区',
    document: '证件',
    number: '证件号码',
    front: '正面',
    back: '背面',
    face: '人脸',
    photos: '照片',
    id_card: '身份证',
    passport: '护照',
    driving_licence: '驾驶证',
    drawer: '实名认证 #{id}',
  },
});

/** Pending KYC submissions: the documents side by side with what the user typed, then the decision. */
export function KycQueuePage() {
  const t = useT();
  const queue = useKycQueue();
  const language = useLanguage();
  const decide = useDecideKyc();
  const countries = new Intl.DisplayNames([language], { type: 'region' });
  const country = (code: string) => `${countries.of(code) ?? code} (${code})`;
  const documentName = (type: DocumentType) => t(type);
  return (
    <ReviewQueue
      testId="kyc"
      intro={t('intro')}
      queue={queue}
      timeLabel={t('submitted')}
      columns={[
        {
          title: t('name'),
          key: 'name',
          render: (_, item) => `${item.lastName} ${item.firstName}`,
        },
        { title: t('country'), dataIndex: 'country', render: (value: string) => country(value) },
        {
          title: t('document'),
          dataIndex: 'documentType',
          render: (value: DocumentType) => documentName(value),
        },
      ]}
      itemTitle={(item) => t('drawer', { id: item.id })}
      details={(item) => [
        { label: t('name'), value: `${item.lastName} ${item.firstName}` },
        { label: t('country'), value: country(item.country) },
        { label: t('document'), value: documentName(item.documentType) },
        {
          label: t('number'),
          value: <Typography.Text copyable>{item.documentNumber}</Typography.Text>,
        },
      ]}
      files={{
        title: t('photos'),
        of: (item) => [
          { caption: t('front'), fileId: item.frontFileId },
          { caption: t('back'), fileId: item.backFileId },
          { caption: t('face'), fileId: item.faceFileId },
        ],
      }}
      decide={decide.mutateAsync}
    />
  );
}
