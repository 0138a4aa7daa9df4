import { CHANNELS, type Channel } from '@tradewind/contract/auth';
import { Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

/** Email or phone sub-tabs. */
export function ChannelTabs({ value, onChange }: { value: Channel; onChange: (channel: Channel) => void }) {
  const { t } = useTranslation();
  return (
    <Tabs activeKey={value} onChange={(key) => onChange(key as Channel)} style={{ '--title-font-size': '15px' }}>
      {CHANNELS.map((channel) => (
        <Tabs.Tab key={channel} title={t(`auth.channel_${channel}`)} />
      ))}
    </Tabs>
  );
}
