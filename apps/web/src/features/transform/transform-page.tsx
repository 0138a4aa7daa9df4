import { Tabs } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useSearchParams } from '@/lib/router.tsx';
import { Page } from '@/ui/page.tsx';
import { ConvertPanel } from './components/convert-panel.tsx';
import { TransferPanel } from './components/transfer-panel.tsx';
import './transform.css';

const TABS = ['convert', 'transfer'] as const;

/** /Transform: convert between a coin and USDT, or transfer USDT between spot and futures (`?tab=transfer`). */
export function TransformPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'transfer' ? 'transfer' : 'convert';
  return (
    <Page title={t('transform.title')}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'convert' ? {} : { tab: key }, { replace: true })}
        className="tw-tf-tabs"
      >
        {TABS.map((key) => (
          <Tabs.Tab key={key} title={t(`transform.tab_${key}`)}>
            {key === 'convert' ? <ConvertPanel /> : <TransferPanel />}
          </Tabs.Tab>
        ))}
      </Tabs>
    </Page>
  );
}
