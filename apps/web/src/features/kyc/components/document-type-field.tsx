import { DOCUMENT_TYPES, DOCUMENT_TYPE_LABELS, type DocumentType } from '@tradewind/contract/kyc';
import { Selector } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';

/** ID card, passport or driver's licence, as one-choice chips. */
export function DocumentTypeField({
  value,
  onChange,
}: {
  value?: DocumentType;
  onChange?: (type: DocumentType) => void;
}) {
  const { t } = useTranslation();
  return (
    <Selector
      columns={3}
      showCheckMark={false}
      options={DOCUMENT_TYPES.map((type) => ({
        label: t(DOCUMENT_TYPE_LABELS[type]),
        value: type,
      }))}
      value={value ? [value] : []}
      onChange={(values) => {
        const type = values[0];
        if (type) onChange?.(type);
      }}
      style={{ '--padding': '8px 6px' }}
    />
  );
}
