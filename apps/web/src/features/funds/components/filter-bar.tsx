import { LANGUAGE_TAGS, type Language } from '@tradewind/contract/languages';
import {
  ASSET_CODES,
  type AssetCode,
  ENTRY_TYPES,
  type EntryType,
  WALLETS,
  type Wallet,
} from '@tradewind/contract/wallet';
import { Button, CalendarPicker, Popup, Selector } from 'antd-mobile';
import { DownFill } from 'antd-mobile-icons';
import { type ReactNode, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { showToast } from '@/ui/toast.ts';
import { type Filters, rangeFits } from '../filters.ts';

type Sheet = 'type' | 'asset' | 'wallet' | 'date' | null;
const ALL = '__all';

function Chip({
  label,
  value,
  active,
  onClick,
}: {
  label: string;
  value: string;
  active: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={active ? 'tw-fd-chip tw-fd-chip-on' : 'tw-fd-chip'}
      onClick={onClick}
      aria-label={`${label}: ${value}`}
      aria-haspopup="dialog"
    >
      <span className="tw-fd-chip-text">{value}</span>
      <DownFill fontSize={9} aria-hidden />
    </button>
  );
}

function SheetBody({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div role="dialog" aria-label={title} className="tw-fd-sheet">
      <h2 className="tw-fd-sheet-title">{title}</h2>
      <div className="tw-fd-sheet-body">{children}</div>
      {footer && <div className="tw-fd-sheet-footer">{footer}</div>}
    </div>
  );
}

/** Type (several), currency, account and a date range of at most 90 days (spec §5's calendar prompt). */
export function FilterBar({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange: (next: Filters) => void;
}) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<Sheet>(null);
  const [draftTypes, setDraftTypes] = useState<EntryType[]>(filters.types);
  const tag = LANGUAGE_TAGS[i18n.language as Language] ?? 'en';
  const day = new Intl.DateTimeFormat(tag, { month: 'short', day: 'numeric' });
  const close = () => setOpen(null);

  const typeValue =
    filters.types.length === 0
      ? t('funds.all_types')
      : filters.types.length === 1
        ? t(`entry_types.${filters.types[0]}`)
        : `${t(`entry_types.${filters.types[0]}`)} +${filters.types.length - 1}`;
  const dateValue = filters.range
    ? `${day.format(filters.range[0])} – ${day.format(filters.range[1])}`
    : t('funds.any_date');

  const single = <T extends string>(
    value: T | undefined,
    allLabel: string,
    options: { label: string; value: T }[],
    pick: (value: T | undefined) => void,
  ) => (
    <Selector
      columns={3}
      value={[value ?? ALL]}
      options={[{ label: allLabel, value: ALL }, ...options]}
      onChange={(values) => {
        const chosen = values[0];
        pick(chosen === undefined || chosen === ALL ? undefined : (chosen as T));
        close();
      }}
    />
  );

  return (
    <>
      <div className="tw-fd-chips" role="group" aria-label={t('funds.filters')}>
        <Chip
          label={t('funds.filter_type')}
          value={typeValue}
          active={filters.types.length > 0}
          onClick={() => {
            setDraftTypes(filters.types);
            setOpen('type');
          }}
        />
        <Chip
          label={t('funds.filter_asset')}
          value={filters.asset ?? t('funds.all_assets')}
          active={!!filters.asset}
          onClick={() => setOpen('asset')}
        />
        <Chip
          label={t('funds.filter_wallet')}
          value={
            filters.wallet ? t(`funds_export.wallet_${filters.wallet}`) : t('funds.all_wallets')
          }
          active={!!filters.wallet}
          onClick={() => setOpen('wallet')}
        />
        <Chip
          label={t('funds.filter_date')}
          value={dateValue}
          active={!!filters.range}
          onClick={() => setOpen('date')}
        />
      </div>

      <Popup
        visible={open === 'type'}
        onMaskClick={close}
        onClose={close}
        bodyClassName="tw-fd-popup"
      >
        <SheetBody
          title={t('funds.filter_type')}
          footer={
            <>
              <Button style={{ flex: 1 }} onClick={() => setDraftTypes([])}>
                {t('funds.reset')}
              </Button>
              <Button
                style={{ flex: 2 }}
                color="primary"
                onClick={() => {
                  onChange({ ...filters, types: draftTypes });
                  close();
                }}
              >
                {t('funds.apply')}
              </Button>
            </>
          }
        >
          <Selector
            columns={2}
            multiple
            value={draftTypes}
            options={ENTRY_TYPES.map((type) => ({ label: t(`entry_types.${type}`), value: type }))}
            onChange={(values) => setDraftTypes(values as EntryType[])}
          />
        </SheetBody>
      </Popup>

      <Popup
        visible={open === 'asset'}
        onMaskClick={close}
        onClose={close}
        bodyClassName="tw-fd-popup"
      >
        <SheetBody title={t('funds.filter_asset')}>
          {single<AssetCode>(
            filters.asset,
            t('funds.all_assets'),
            ASSET_CODES.map((asset) => ({ label: asset, value: asset })),
            (asset) => onChange({ ...filters, asset }),
          )}
        </SheetBody>
      </Popup>

      <Popup
        visible={open === 'wallet'}
        onMaskClick={close}
        onClose={close}
        bodyClassName="tw-fd-popup"
      >
        <SheetBody title={t('funds.filter_wallet')}>
          {single<Wallet>(
            filters.wallet,
            t('funds.all_wallets'),
            WALLETS.map((wallet) => ({ label: t(`funds_export.wallet_${wallet}`), value: wallet })),
            (wallet) => onChange({ ...filters, wallet }),
          )}
        </SheetBody>
      </Popup>

      <CalendarPicker
        visible={open === 'date'}
        selectionMode="range"
        title={t('funds.range_prompt')}
        confirmText={t('funds.apply')}
        defaultValue={filters.range ?? null}
        allowClear
        max={new Date()}
        min={new Date(new Date().getFullYear() - 2, 0, 1)}
        onClose={close}
        onMaskClick={close}
        onConfirm={(range) => {
          if (range && !rangeFits(range)) {
            showToast({ content: t('validation.range_max_days'), duration: 2000 });
            return;
          }
          onChange({ ...filters, range: range ?? undefined });
        }}
      />
    </>
  );
}
