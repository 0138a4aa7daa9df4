import { CHANNELS, type Channel } from '@tradewind/contract/auth-basics';
import { Tabs } from 'antd-mobile';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { useTranslation } from 'react-i18next';

/** Email or phone sub-tabs; switching clears the account field, whose format changes. */
export function ChannelTabs({ value, onChange, form }: { value: Channel; onChange: (channel: Channel) => void; form: FormInstance }) {
  const { t } = useTranslation();
  return (
    <Tabs
      activeKey={value}
      onChange={(key) => {
        onChange(key as Channel);
        form.resetFields(['account']);
      }}
      style={{ '--title-font-size': '15px' }}
    >
      {CHANNELS.map((channel) => (
        <Tabs.Tab key={channel} title={t(`auth.channel_${channel}`)} />
      ))}
    </Tabs>
  );
}
