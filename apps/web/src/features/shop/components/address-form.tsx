import {
  type DeliveryAddress,
  SHIPPING_REGIONS,
  saveAddressRequestSchema,
} from '@tradewind/contract/shop';
import { Form, Input } from 'antd-mobile';
import { useMemo } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { clearErrorsOnChange, useFormSubmit } from '@/lib/forms.ts';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { useSaveAddress } from '../api/save-address.ts';

/** Receiving areas named in the user's language, sorted as that language sorts. */
function useRegionOptions(language: string) {
  return useMemo(() => {
    const names = new Intl.DisplayNames([language.replace('_', '-')], { type: 'region' });
    return SHIPPING_REGIONS.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, language.replace('_', '-')),
    );
  }, [language]);
}

export function regionName(code: string, language: string): string {
  return new Intl.DisplayNames([language.replace('_', '-')], { type: 'region' }).of(code) ?? code;
}

/**
 * A delivery address (spec §5): name must be filled, phone must be valid, address cannot be
 * empty, a receiving area must be chosen. Each message shows under its field and goes away
 * as soon as that field changes.
 */
export function AddressForm({
  initial,
  onSaved,
}: {
  initial: DeliveryAddress | null;
  onSaved: (address: DeliveryAddress) => void;
}) {
  const { t, i18n } = useTranslation();
  const save = useSaveAddress();
  const regions = useRegionOptions(i18n.language);
  const { form, submitting, submit } = useFormSubmit(
    saveAddressRequestSchema,
    (body) => save.mutateAsync(body),
    onSaved,
  );
  const onFinish = (values: Record<string, string | undefined>) =>
    submit({
      ...(initial ? { id: initial.id } : {}),
      name: values.name ?? '',
      phone: values.phone ?? '',
      region: values.region ?? '',
      address: values.address ?? '',
    });
  return (
    <Form
      form={form}
      layout="vertical"
      className="tw-flat-form"
      initialValues={initial ?? { name: '', phone: '', region: '', address: '' }}
      onValuesChange={clearErrorsOnChange(form)}
      onFinish={onFinish}
      footer={<SubmitButton label={t('shop.save_address')} loading={submitting} />}
      data-testid="address-form"
    >
      <Form.Item name="name" label={t('shop.field.name')}>
        <Input autoComplete="name" placeholder={t('shop.placeholder.name')} clearable />
      </Form.Item>
      <Form.Item name="phone" label={t('shop.field.phone')}>
        <Input type="tel" autoComplete="tel" placeholder={t('shop.placeholder.phone')} clearable />
      </Form.Item>
      <Form.Item name="region" label={t('shop.field.region')}>
        <select className="tw-shop-select" aria-label={t('shop.field.region')}>
          <option value="">{t('shop.placeholder.region')}</option>
          {regions.map((region) => (
            <option key={region.code} value={region.code}>
              {region.name}
            </option>
          ))}
        </select>
      </Form.Item>
      <Form.Item name="address" label={t('shop.field.address')}>
        <Input
          autoComplete="street-address"
          placeholder={t('shop.placeholder.address')}
          clearable
        />
      </Form.Item>
    </Form>
  );
}
