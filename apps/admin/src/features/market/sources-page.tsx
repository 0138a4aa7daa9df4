import type { MarketSources, PriceSource } from '@tradewind/contract/market-sources';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Space, Table, Tag, Typography } from 'antd';
import { formatTime } from '@/lib/format.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { getSources, sourcesQueryKey } from './api/get-sources.ts';

const useT = defineStrings({
  en: {
    note: 'Where each price comes from. The sources are configuration (MARKET_SOURCES, PYTH_FEED_IDS): nothing here can set or change a price. See docs/prices.md.',
    symbol: 'Instrument',
    sources: 'Sources (id)',
    lastQuote: 'In the latest tick',
    lastTick: 'Latest tick',
    none: 'No source: not tradable',
    noTick: 'None in the last 24 h',
    notInTick: 'not in it',
    fresh: 'A quote counts for',
    band: 'Quarantine band',
    quarantined: 'Quarantined in the last 24 h',
    seconds: '{n} s',
    percent: '{n} %',
  },
  'zh-CN': {
    note: '每个价格的来源。来源由配置决定（MARKET_SOURCES、PYTH_FEED_IDS）：此处无法设置或修改任何价格。详见 docs/prices.md。',
    symbol: '交易品种',
    sources: '来源（标识）',
    lastQuote: '最新行情中的报价',
    lastTick: '最新行情',
    none: '无来源：不可交易',
    noTick: '近 24 小时无',
    notInTick: '未包含',
    fresh: '报价有效期',
    band: '隔离阈值',
    quarantined: '近 24 小时隔离',
    seconds: '{n} 秒',
    percent: '{n} %',
  },
});

type Row = MarketSources['items'][number];

/** Price sources: each instrument's sources with their ids and last quotes; read-only, never a price. */
export function SourcesPage() {
  const t = useT();
  const query = useQuery({
    queryKey: sourcesQueryKey,
    queryFn: getSources,
    refetchInterval: 5_000,
  });
  const data = query.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Alert type="info" title={t('note')} showIcon />
      {query.isError && <Alert type="error" title={(query.error as Error).message} />}
      {data && (
        <Descriptions size="small" column={3} data-testid="sources-summary">
          <Descriptions.Item label={t('fresh')}>
            {t('seconds', { n: data.freshMs / 1000 })}
          </Descriptions.Item>
          <Descriptions.Item label={t('band')}>
            {t('percent', { n: data.quarantineBandPpm / 10_000 })}
          </Descriptions.Item>
          <Descriptions.Item label={t('quarantined')}>{data.quarantinedLastDay}</Descriptions.Item>
        </Descriptions>
      )}
      <Table<Row>
        data-testid="sources-table"
        rowKey="symbol"
        loading={query.isPending}
        dataSource={data?.items}
        pagination={false}
        size="small"
        columns={[
          { title: t('symbol'), dataIndex: 'symbol', width: 120 },
          {
            title: t('sources'),
            key: 'sources',
            render: (_, row) =>
              row.sources.length === 0 ? (
                <Tag color="red">{t('none')}</Tag>
              ) : (
                <Space direction="vertical" size={2}>
                  {row.sources.map((source) => (
                    <SourceLine key={source.source} source={source} />
                  ))}
                </Space>
              ),
          },
          {
            title: t('lastQuote'),
            key: 'lastQuote',
            width: 220,
            render: (_, row) => (
              <Space direction="vertical" size={2}>
                {row.sources.map((source) => (
                  <Typography.Text
                    key={source.source}
                    type={source.lastQuoteAt ? undefined : 'secondary'}
                  >
                    {source.lastQuoteAt ? formatTime(source.lastQuoteAt) : t('notInTick')}
                  </Typography.Text>
                ))}
              </Space>
            ),
          },
          {
            title: t('lastTick'),
            dataIndex: 'lastTickAt',
            width: 200,
            render: (at: string | null) => (at ? formatTime(at) : t('noTick')),
          },
        ]}
      />
    </Space>
  );
}

function SourceLine({ source }: { source: PriceSource }) {
  return (
    <span>
      <Tag>{source.source}</Tag>
      <Typography.Text>{source.label}</Typography.Text>{' '}
      {source.id !== source.label && source.id !== source.source && (
        <Typography.Text type="secondary" copyable={{ text: source.id }} style={{ fontSize: 12 }}>
          {source.id.length > 20 ? `${source.id.slice(0, 8)}…${source.id.slice(-8)}` : source.id}
        </Typography.Text>
      )}
    </span>
  );
}
