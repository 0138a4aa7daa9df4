import { useTranslation } from '@/lib/i18n.ts';
import { Page } from '@/ui/page.tsx';
import { AddressBook } from './components/address-book.tsx';
import './shop.css';

/** /Address: the user's delivery addresses for points-shop items. */
export function AddressPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('routes.Address')} backTo="/Shop">
      <section className="tw-card">
        <AddressBook />
      </section>
    </Page>
  );
}
