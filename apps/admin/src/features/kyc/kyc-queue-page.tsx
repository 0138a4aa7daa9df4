import type { DocumentType } from '@tradewind/contract/kyc';
import type { kycQueueItemSchema } from '@tradewind/contract/kyc';
import { Descriptions, Space, Typography } from 'antd';
import type { z } from 'zod';
import { formatTime } from '@/lib/format.ts';
import { defineStrings, useLanguage } from '@/lib/i18n.ts';
import { DecisionButtons } from '@/ui/decision-buttons.tsx';
import { PrivateImage } from '@/ui/private-image.tsx';
import { QueueUser } from '@/ui/queue-user.tsx';
import { ReviewQueue } from '@/ui/review-queue.tsx';
import { useDecideKyc } from './api/decide-kyc.ts';
import { useKycQueue } from './api/get-kyc-queue.ts';

type Item = z.infer<typeof kycQueueItemSchema>;

const useT = defineStrings({
  en: {
    intro: 'Pending submissions, oldest first. Compare the name and number with the document and the face photo.',
    submitted: 'Submitted',
    user: 'User',
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
    user: '用户',
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
  const language = useLanguage();
  const queue = useKycQueue();
  const decide = useDecideKyc();
  const countries = new Intl.DisplayNames([language], { type: 'region' });
  const country = (code: string) => `${countries.of(code) ?? code} (${code})`;
  const documentName = (type: DocumentType) => t(type);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('intro')}</Typography.Text>
      <ReviewQueue<Item>
        testId="kyc"
        queue={queue}
        columns={[
          { title: '#', dataIndex: 'id', width: 80 },
          { title: t('submitted'), dataIndex: 'createdAt', render: (value: string) => formatTime(value) },
          { title: t('user'), key: 'user', render: (_, item) => <QueueUser user={item.user} /> },
          { title: t('name'), key: 'name', render: (_, item) => `${item.lastName} ${item.firstName}` },
          { title: t('country'), dataIndex: 'country', render: (value: string) => country(value) },
          { title: t('document'), dataIndex: 'documentType', render: (value: DocumentType) => documentName(value) },
        ]}
        drawerTitle={(item) => t('drawer', { id: item.id })}
        detail={(item) => (
          <Space direction="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('user')}>
                <QueueUser user={item.user} />
              </Descriptions.Item>
              <Descriptions.Item label={t('name')}>{`${item.lastName} ${item.firstName}`}</Descriptions.Item>
              <Descriptions.Item label={t('country')}>{country(item.country)}</Descriptions.Item>
              <Descriptions.Item label={t('document')}>{documentName(item.documentType)}</Descriptions.Item>
              <Descriptions.Item label={t('number')}>
                <Typography.Text copyable>{item.documentNumber}</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('submitted')}>{formatTime(item.createdAt)}</Descriptions.Item>
            </Descriptions>
            <div>
              <Typography.Title level={5}>{t('photos')}</Typography.Title>
              <Space wrap align="start" size="middle">
                <Figure caption={t('front')}>
                  <PrivateImage fileId={item.frontFileId} alt={t('front')} width={200} />
                </Figure>
                {item.backFileId ? (
                  <Figure caption={t('back')}>
                    <PrivateImage fileId={item.backFileId} alt={t('back')} width={200} />
                  </Figure>
                ) : null}
                <Figure caption={t('face')}>
                  <PrivateImage fileId={item.faceFileId} alt={t('face')} width={200} />
                </Figure>
              </Space>
            </div>
            <DecisionButtons onDecide={(decision, reason) => decide.mutateAsync({ id: item.id, decision, ...(reason ? { reason } : {}) })} />
          </Space>
        )}
      />
    </Space>
  );
}

function Figure({ caption, children }: { caption: string; children: React.ReactNode }) {
  return (
    <figure style={{ margin: 0 }}>
      {children}
      <figcaption style={{ color: '#888', marginTop: 4 }}>{caption}</figcaption>
    </figure>
  );
}
