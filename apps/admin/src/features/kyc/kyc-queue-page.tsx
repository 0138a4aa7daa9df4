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
    confirmTitle: 'Approve verification #{id}?',
    confirmEffect:
      'Approving verifies this user as {name}. It unlocks withdrawals and every other financial action (conversion, contracts, miners, IEO, loans), and their bank cards must then be in this name.',
    confirmOk: 'Approve: unlock financial actions',
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
    confirmTitle: '通过实名认证 #{id}？',
    confirmEffect:
      '通过后该用户将以“{name}”完成实名。这会解锁提现及所有其他金融操作（闪兑、合约、矿机、IEO、贷款），其银行卡之后须为此姓名。',
    confirmOk: '通过：解锁金融操作',
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
      confirm={(item) => ({
        title: t('confirmTitle', { id: item.id }),
        effect: t('confirmEffect', { name: `${item.lastName} ${item.firstName}` }),
        uid: item.user.uid,
        facts: [
          { label: t('name'), value: `${item.lastName} ${item.firstName}` },
          { label: t('country'), value: country(item.country) },
          { label: t('document'), value: documentName(item.documentType) },
          { label: t('number'), value: item.documentNumber },
        ],
        okText: t('confirmOk'),
      })}
    />
  );
}
