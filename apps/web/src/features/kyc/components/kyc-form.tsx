import {
  type DocumentType,
  type KycOverview,
  kycSubmitRequestSchema,
  needsBackPhoto,
} from '@tradewind/contract/kyc';
import { Form, Input } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { ImageUpload } from '@/ui/image-upload.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { submitKyc } from '../api/submit-kyc.ts';
import { CountryField } from './country-field.tsx';
import { DocumentTypeField } from './document-type-field.tsx';

export interface KycFormValues {
  country?: string;
  lastName?: string;
  firstName?: string;
  documentType?: DocumentType;
  documentNumber?: string;
  frontFileId?: string;
  backFileId?: string;
  faceFileId?: string;
}

/** spec §3 KYC: country, names, document type and number, front, back (not for a passport) and face photos. */
export function KycForm({
  initial,
  onSubmitted,
}: {
  initial?: KycFormValues;
  onSubmitted: (overview: KycOverview) => void;
}) {
  const { t } = useTranslation();
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    kycSubmitRequestSchema,
    submitKyc,
    onSubmitted,
  );

  const onFinish = (values: KycFormValues) =>
    submit({
      country: values.country,
      lastName: values.lastName ?? '',
      firstName: values.firstName ?? '',
      documentType: values.documentType,
      documentNumber: values.documentNumber ?? '',
      frontFileId: values.frontFileId,
      backFileId:
        values.documentType && needsBackPhoto(values.documentType) ? values.backFileId : undefined,
      faceFileId: values.faceFileId,
    });

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ documentType: 'id_card', ...initial }}
      onFinish={onFinish}
      onValuesChange={clearEdited}
      footer={<SubmitButton label={t('kyc.form.submit')} loading={submitting} />}
      style={{ '--border-top': 'none', '--border-bottom': 'none' }}
    >
      <Form.Header>{t('kyc.form.personal')}</Form.Header>
      <Form.Item name="country" label={t('kyc.form.country')}>
        <CountryField label={t('kyc.form.country')} />
      </Form.Item>
      <Form.Item name="lastName" label={t('kyc.form.last_name')}>
        <Input
          placeholder={t('kyc.form.last_name_placeholder')}
          autoComplete="family-name"
          maxLength={64}
          clearable
        />
      </Form.Item>
      <Form.Item name="firstName" label={t('kyc.form.first_name')}>
        <Input
          placeholder={t('kyc.form.first_name_placeholder')}
          autoComplete="given-name"
          maxLength={64}
          clearable
        />
      </Form.Item>
      <Form.Header>{t('kyc.form.document')}</Form.Header>
      <Form.Item name="documentType" label={t('kyc.form.document_type')}>
        <DocumentTypeField />
      </Form.Item>
      <Form.Item name="documentNumber" label={t('kyc.form.document_number')}>
        <Input
          name="documentNumber"
          placeholder={t('kyc.form.document_number_placeholder')}
          autoComplete="off"
          maxLength={32}
          clearable
        />
      </Form.Item>
      <Form.Header>{t('kyc.form.photos')}</Form.Header>
      <Form.Subscribe to={['documentType']}>
        {({ documentType }: KycFormValues) => (
          <>
            <Form.Item
              name="frontFileId"
              label={t(documentType === 'passport' ? 'kyc.form.front_passport' : 'kyc.form.front')}
            >
              <ImageUpload
                purpose="kyc"
                name="front"
                label={t(
                  documentType === 'passport' ? 'kyc.form.front_passport' : 'kyc.form.front',
                )}
                hint={t('kyc.form.front_hint')}
              />
            </Form.Item>
            {documentType !== 'passport' && (
              <Form.Item name="backFileId" label={t('kyc.form.back')}>
                <ImageUpload
                  purpose="kyc"
                  name="back"
                  label={t('kyc.form.back')}
                  hint={t('kyc.form.back_hint')}
                />
              </Form.Item>
            )}
          </>
        )}
      </Form.Subscribe>
      <Form.Item name="faceFileId" label={t('kyc.form.face')}>
        <ImageUpload
          purpose="kyc"
          name="face"
          label={t('kyc.form.face')}
          hint={t('kyc.form.face_hint')}
        />
      </Form.Item>
      <p className="tw-muted" style={{ margin: '4px 16px 0' }}>
        {t('kyc.form.privacy')}
      </p>
    </Form>
  );
}
