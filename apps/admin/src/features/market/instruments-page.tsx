import { type AdminInstrument, type InstrumentSave } from '@tradewind/contract/catalog';
import { Alert, Form, Input, InputNumber, Switch, Tag } from 'antd';
import { defineStrings, useLanguage } from '@/lib/i18n.ts';
import { CatalogEditor } from '@/ui/catalog-editor.tsx';
import { getInstruments, instrumentsQueryKey } from './api/get-instruments.ts';
import { saveInstrument } from './api/save-instrument.ts';

const useT = defineStrings({
  en: {
    symbol: 'Symbol',
    kind: 'Kind',
    crypto: 'Crypto',
    commodity: 'Commodity',
    forex: 'Forex',
    metal: 'Metal',
    name: 'Name shown',
    displayName: 'Display name',
    displayNameHelp: 'Empty: the translated name ({name}) in each language.',
    tradable: 'Tradable',
    recommended: 'Recommended',
    popular: 'Popular',
    sort: 'Order',
    yes: 'Yes',
    no: 'No',
    edit: 'Edit {symbol}',
    note: 'Prices are recorded by the feed only: nothing here can set or change a price.',
    tooLong: 'At most 40 characters, without < or >.',
    sortRule: 'A whole number from 0 to 10,000.',
  },
  'zh-CN': {
    symbol: '代码',
    kind: '类别',
    crypto: '加密货币',
    commodity: '大宗商品',
    forex: '外汇',
    metal: '贵金属',
    name: '显示名称',
    displayName: '自定义名称',
    displayNameHelp: '留空：各语言使用翻译名称（{name}）。',
    tradable: '可交易',
    recommended: '推荐',
    popular: '热门',
    sort: '排序',
    yes: '是',
    no: '否',
    edit: '编辑 {symbol}',
    note: '价格只由行情源记录：此处无法设置或修改任何价格。',
    tooLong: '最多 40 个字符，不能包含 < 或 >。',
    sortRule: '0 到 10000 的整数。',
  },
});

/** The form's values: the save's fields, plus the catalogues' name for the hint (not sent). */
type Values = Omit<InstrumentSave, 'displayName' | 'symbol'> & {
  symbol: string;
  displayName: string;
  defaultName: string;
};

/** Instruments: tradable flag, Home's recommended and popular marks, a display name and the order. Never a price. */
export function InstrumentsPage() {
  const t = useT();
  const language = useLanguage();
  const flag = (on: boolean) => (on ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>);
  return (
    <CatalogEditor<AdminInstrument, Values>
      testId="instruments"
      queryKey={instrumentsQueryKey(language)}
      load={() => getInstruments()}
      save={({ defaultName: _defaultName, ...values }) =>
        saveInstrument({ ...values, displayName: values.displayName.trim() || null })
      }
      rowKey={(row) => row.symbol}
      note={<Alert type="info" title={t('note')} style={{ marginBottom: 16 }} showIcon />}
      columns={[
        { title: t('symbol'), dataIndex: 'symbol' },
        { title: t('kind'), dataIndex: 'kind', render: (kind: AdminInstrument['kind']) => t(kind) },
        {
          title: t('name'),
          key: 'name',
          render: (_: unknown, row) => row.displayName ?? row.defaultName,
        },
        { title: t('tradable'), dataIndex: 'tradable', render: flag },
        { title: t('recommended'), dataIndex: 'recommended', render: flag },
        { title: t('popular'), dataIndex: 'popular', render: flag },
        { title: t('sort'), dataIndex: 'sort' },
      ]}
      toForm={(row) => ({
        symbol: row.symbol,
        defaultName: row.defaultName,
        displayName: row.displayName ?? '',
        tradable: row.tradable,
        recommended: row.recommended,
        popular: row.popular,
        sort: row.sort,
      })}
      title={(row) => t('edit', { symbol: row?.symbol ?? '' })}
      fields={(form) => (
        <>
          <Form.Item name="symbol" hidden>
            <Input />
          </Form.Item>
          <Form.Item name="defaultName" hidden>
            <Input />
          </Form.Item>
          <Form.Item
            name="displayName"
            label={t('displayName')}
            extra={t('displayNameHelp', { name: String(form.getFieldValue('defaultName') ?? '') })}
            rules={[{ max: 40, pattern: /^[^<>]*$/, message: t('tooLong') }]}
          >
            <Input data-testid="instrument-display-name" allowClear />
          </Form.Item>
          <Form.Item name="tradable" label={t('tradable')} valuePropName="checked">
            <Switch data-testid="instrument-tradable" />
          </Form.Item>
          <Form.Item name="recommended" label={t('recommended')} valuePropName="checked">
            <Switch data-testid="instrument-recommended" />
          </Form.Item>
          <Form.Item name="popular" label={t('popular')} valuePropName="checked">
            <Switch data-testid="instrument-popular" />
          </Form.Item>
          <Form.Item
            name="sort"
            label={t('sort')}
            rules={[
              { required: true, type: 'integer', min: 0, max: 10_000, message: t('sortRule') },
            ]}
          >
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
        </>
      )}
    />
  );
}
