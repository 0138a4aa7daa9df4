import { ASSETS, type AssetCode } from '@tradewind/contract/wallet';
import { List, Popup } from 'antd-mobile';
import { CheckOutline, DownOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { AssetIcon } from '@/ui/asset-icon.tsx';

interface AssetFieldProps {
  value?: AssetCode;
  onChange?: (value: AssetCode) => void;
  options: readonly AssetCode[];
  /** What the field is ("Convert from"): the button's label and the list's title. */
  label: string;
  /** Available balance per asset, shown in the list. */
  balances?: Partial<Record<string, string>>;
}

/** A currency chooser: a button showing the current one, and a bottom sheet to pick another. */
export function AssetField({ value, onChange, options, label, balances }: AssetFieldProps) {
  const [open, setOpen] = useState(false);
  const choosable = options.length > 1;
  return (
    <>
      <button
        type="button"
        className="tw-tf-asset"
        aria-label={`${label}: ${value ?? ''}`}
        aria-haspopup={choosable ? 'dialog' : undefined}
        disabled={!choosable}
        onClick={() => setOpen(true)}
      >
        {value && <AssetIcon asset={value} size={22} />}
        <span className="tw-tf-asset-code">{value}</span>
        {choosable && <DownOutline aria-hidden fontSize={12} />}
      </button>
      <Popup
        visible={open}
        onMaskClick={() => setOpen(false)}
        onClose={() => setOpen(false)}
        bodyStyle={{
          borderTopLeftRadius: 12,
          borderTopRightRadius: 12,
          maxHeight: '70vh',
          overflowY: 'auto',
        }}
      >
        <div role="dialog" aria-label={label}>
          <h2 className="tw-tf-sheet-title">{label}</h2>
          <List>
            {options.map((asset) => (
              <List.Item
                key={asset}
                arrowIcon={false}
                prefix={<AssetIcon asset={asset} />}
                description={ASSETS[asset].name}
                extra={
                  <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
                    {balances?.[asset] ?? ''}
                    {asset === value && <CheckOutline color="var(--tw-primary)" aria-hidden />}
                  </span>
                }
                onClick={() => {
                  onChange?.(asset);
                  setOpen(false);
                }}
              >
                {asset}
              </List.Item>
            ))}
          </List>
        </div>
      </Popup>
    </>
  );
}
