import { SHARED_SETTING_NAMES } from '@tradewind/contract/operator';
import { Alert, Input, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatTime } from '@/lib/format.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { useSettings } from './api/get-settings.ts';
import { SharedSettingsCard } from './shared-settings-card.tsx';

const useT = defineStrings({
  en: {
    intro:
      'Below the install-wide settings: this node’s own settings, read from its environment when it starts (see docs/configuration.md). Change those in the deployment and restart; nothing here edits them.',
    version: 'Version {version}, started {at}',
    name: 'Setting',
    value: 'Value in effect',
    source: 'Source',
    env: 'Environment',
    default: 'Default',
    unset: 'not set',
    hidden: 'hidden',
    search: 'Filter settings',
  },
  'zh-CN': {
    intro:
      '全站设置之下是本节点自己的设置，在启动时从环境变量读取（见 docs/configuration.md）。请在部署中修改并重启；此处不能编辑。',
    version: '版本 {version}，启动于 {at}',
    name: '设置项',
    value: '当前值',
    source: '来源',
    env: '环境变量',
    default: '默认值',
    unset: '未设置',
    hidden: '已隐藏',
    search: '筛选设置项',
  },
});

const SHARED = new Set<string>(SHARED_SETTING_NAMES);

/** The server's settings in effect, read-only, with keys, tokens and credentials hidden. */
export function SettingsPage() {
  const t = useT();
  const [filter, setFilter] = useState('');
  const settings = useSettings();
  const needle = filter.trim().toUpperCase();
  // The install-wide ones are above, with the value every node applies; a node's environment
  // only seeded them, so its copy here would mislead.
  const rows = (settings.data?.items ?? []).filter(
    (item) => !SHARED.has(item.name) && (!needle || item.name.includes(needle)),
  );
  return (
    <>
      <SharedSettingsCard />
      <Typography.Paragraph type="secondary" style={{ maxWidth: 760, marginTop: 24 }}>
        {t('intro')}
      </Typography.Paragraph>
      {settings.data && (
        <Typography.Paragraph>
          {t('version', {
            version: settings.data.version,
            at: formatTime(settings.data.startedAt),
          })}
        </Typography.Paragraph>
      )}
      {settings.isError && <Alert type="error" title={(settings.error as Error).message} />}
      <Input.Search
        allowClear
        placeholder={t('search')}
        aria-label={t('search')}
        onChange={(event) => setFilter(event.target.value)}
        style={{ maxWidth: 320, marginBottom: 16 }}
      />
      <Table
        rowKey="name"
        size="small"
        loading={settings.isPending}
        dataSource={rows}
        pagination={false}
        columns={[
          {
            title: t('name'),
            dataIndex: 'name',
            render: (name: string) => <Typography.Text code>{name}</Typography.Text>,
          },
          {
            title: t('value'),
            key: 'value',
            render: (_: unknown, row) =>
              row.value === null ? (
                <Typography.Text type="secondary">{t('unset')}</Typography.Text>
              ) : (
                <span>
                  {row.value}
                  {row.secret && <Tag style={{ marginLeft: 8 }}>{t('hidden')}</Tag>}
                </span>
              ),
          },
          {
            title: t('source'),
            dataIndex: 'fromEnv',
            width: 140,
            render: (fromEnv: boolean) =>
              fromEnv ? <Tag color="blue">{t('env')}</Tag> : <Tag>{t('default')}</Tag>,
          },
        ]}
      />
    </>
  );
}
