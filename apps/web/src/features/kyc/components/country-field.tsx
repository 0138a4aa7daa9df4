import { COUNTRY_CODES } from '@tradewind/contract/kyc';
import { LANGUAGE_TAGS, normalizeLanguage } from '@tradewind/contract/languages';
import { CheckList, ErrorBlock, Popup, SearchBar } from 'antd-mobile';
import { RightOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';

/** Country names in the user's language, from the browser (Intl.DisplayNames), sorted by name. */
export function useCountries() {
  const { i18n } = useTranslation();
  const tag = LANGUAGE_TAGS[normalizeLanguage(i18n.language)];
  return useMemo(() => {
    const names = new Intl.DisplayNames([tag], { type: 'region' });
    return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, tag),
    );
  }, [tag]);
}

/** A form control: the chosen country, and a searchable list in a bottom sheet. */
export function CountryField({
  value,
  onChange,
  label,
}: {
  value?: string;
  onChange?: (code: string) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const countries = useCountries();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const selected = countries.find((c) => c.code === value);
  const query = search.trim().toLowerCase();
  const shown = query
    ? countries.filter(
        (c) => c.name.toLowerCase().includes(query) || c.code.toLowerCase() === query,
      )
    : countries;
  const close = () => {
    setOpen(false);
    setSearch('');
  };

  return (
    <>
      <button
        type="button"
        className="tw-select"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label={selected ? `${label}: ${selected.name}` : label}
      >
        {selected ? (
          <span>{selected.name}</span>
        ) : (
          <span className="tw-placeholder">{t('kyc.form.country_placeholder')}</span>
        )}
        <RightOutline aria-hidden color="var(--tw-muted)" />
      </button>
      <Popup
        visible={open}
        onMaskClick={close}
        onClose={close}
        bodyStyle={{
          height: '72vh',
          display: 'flex',
          flexDirection: 'column',
          borderTopLeftRadius: 12,
          borderTopRightRadius: 12,
        }}
      >
        <div
          role="dialog"
          aria-label={label}
          style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}
        >
          <div style={{ padding: 12 }}>
            <SearchBar
              placeholder={t('kyc.form.country_search')}
              value={search}
              onChange={setSearch}
              aria-label={t('kyc.form.country_search')}
            />
          </div>
          <div style={{ flex: 1, overflowY: 'auto' }}>
            {shown.length === 0 ? (
              <ErrorBlock status="empty" title={t('kyc.form.country_none')} description="" />
            ) : (
              <CheckList
                value={value ? [value] : []}
                onChange={(values) => {
                  const code = values[0];
                  if (typeof code === 'string') onChange?.(code);
                  close();
                }}
              >
                {shown.map((country) => (
                  <CheckList.Item key={country.code} value={country.code}>
                    {country.name}
                  </CheckList.Item>
                ))}
              </CheckList>
            )}
          </div>
        </div>
      </Popup>
    </>
  );
}
