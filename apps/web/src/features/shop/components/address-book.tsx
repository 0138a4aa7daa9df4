import type { DeliveryAddress } from '@tradewind/contract/shop';
import { Button, ErrorBlock, Popup, Radio, Skeleton } from 'antd-mobile';
import { AddOutline, DeleteOutline, EditSOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { confirm } from '@/ui/confirm.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { useDeleteAddress } from '../api/delete-address.ts';
import { useAddresses } from '../api/get-addresses.ts';
import { AddressForm, regionName } from './address-form.tsx';

/**
 * The user's address book: list, add, edit, delete and, when `onChoose` is given, choose one.
 * The form opens in a popup over the list.
 */
export function AddressBook({
  chosen,
  onChoose,
}: {
  chosen?: string | null;
  onChoose?: (address: DeliveryAddress) => void;
}) {
  const { t, i18n } = useTranslation();
  const addresses = useAddresses();
  const remove = useDeleteAddress();
  const [editing, setEditing] = useState<DeliveryAddress | 'new' | null>(null);

  const onDelete = async (address: DeliveryAddress) => {
    if (await confirm({ content: t('shop.delete_confirm') })) remove.mutate(address.id);
  };

  const items = addresses.data?.items ?? [];
  return (
    <div className="tw-shop-book" data-testid="address-book">
      {addresses.isPending ? (
        <Skeleton.Paragraph lineCount={3} animated />
      ) : addresses.isError ? (
        <LoadFailed
          error={addresses.error}
          onRetry={() => void addresses.refetch()}
          retrying={addresses.isFetching}
        />
      ) : items.length === 0 ? (
        <ErrorBlock status="empty" title={t('shop.no_address')} description="" />
      ) : (
        <ul className="tw-shop-addresses">
          {items.map((address) => (
            <li key={address.id} data-testid="address-item">
              {onChoose && (
                <Radio
                  checked={chosen === address.id}
                  onChange={() => onChoose(address)}
                  aria-label={t('shop.choose_address', { name: address.name })}
                />
              )}
              <button
                type="button"
                className="tw-shop-address"
                onClick={() => onChoose?.(address)}
                disabled={!onChoose}
              >
                <strong>
                  {address.name} <span className="tw-muted">{address.phone}</span>
                </strong>
                <span>
                  {regionName(address.region, i18n.language)} · {address.address}
                </span>
              </button>
              <span className="tw-shop-address-actions">
                <Button
                  size="mini"
                  fill="none"
                  aria-label={t('shop.edit_address')}
                  onClick={() => setEditing(address)}
                >
                  <EditSOutline />
                </Button>
                <Button
                  size="mini"
                  fill="none"
                  aria-label={t('shop.delete_address')}
                  onClick={() => void onDelete(address)}
                >
                  <DeleteOutline />
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <Button block fill="outline" onClick={() => setEditing('new')} data-testid="address-add">
        <AddOutline aria-hidden /> {t('shop.add_address')}
      </Button>
      <Popup
        visible={editing !== null}
        onMaskClick={() => setEditing(null)}
        onClose={() => setEditing(null)}
        destroyOnClose
        bodyClassName="tw-shop-popup"
      >
        <h2 className="tw-shop-popup-title">
          {editing === 'new' ? t('shop.add_address') : t('shop.edit_address')}
        </h2>
        {editing !== null && (
          <AddressForm
            initial={editing === 'new' ? null : editing}
            onSaved={(address) => {
              setEditing(null);
              onChoose?.(address);
            }}
          />
        )}
      </Popup>
    </div>
  );
}
