import {
  MINING_DAILY_RATE_MAX_PPM,
  MINING_PERIOD_MAX_DAYS,
  type MiningProductInput,
  type miningAdminProductSchema,
} from '@tradewind/contract/mining';
import { Alert, Form, Input, InputNumber, Switch } from 'antd';
import type { z } from 'zod';
import { defineStrings, useLanguage } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { CatalogEditor, OnOff, decimalPattern } from '@/ui/catalog-editor.tsx';
import { LocalizedInputs, type LocalizedText, mergeLocalized } from '@/ui/localized-inputs.tsx';
import { getMinerProducts, minerProductsQueryKey } from './api/get-miner-products.ts';
import { saveMinerProduct } from './api/save-miner-product.ts';

const useT = defineStrings({
  en: {
    slug: 'Slug',
    name: 'Name',
    description: 'Description',
    output: 'Output coin',
    hashrate: 'Hashrate',
    power: 'Power',
    periodDays: 'Period (days)',
    unitPrice: 'Unit price (USDT)',
    minInvestment: 'Min investment (USDT)',
    maxQuantity: 'Max units',
    dailyRate: 'Daily rate (ppm)',
    enabled: 'Enabled',
    sort: 'Order',
    create: 'New miner',
    edit: 'Edit {name}',
    note: 'Rentals already made keep the terms they were rented at.',
    slugRule: 'Lowercase letters, digits and dashes (1–64).',
    textRule: 'Required in English; no < or >.',
    outputRule: '2–10 capital letters or digits, e.g. BTC.',
    plainRule: '1–40 characters, without < or >.',
    intRule: 'A whole number from {min} to {max}.',
    amountRule: 'A positive USDT amount with at most 6 decimals.',
    ppm: 'parts per million a day: {pct} %',
  },
  'zh-CN': {
    slug: '标识',
    name: '名称',
    description: '说明',
    output: '产出币种',
    hashrate: '算力',
    power: '功耗',
    periodDays: '周期（天）',
    unitPrice: '单价（USDT）',
    minInvestment: '最低投资（USDT）',
    maxQuantity: '最多台数',
    dailyRate: '日收益率（百万分率）',
    enabled: '启用',
    sort: '排序',
    create: '新建矿机',
    edit: '编辑 {name}',
    note: '已租用的矿机按租用时的条款执行。',
    slugRule: '小写字母、数字和短横线（1–64 位）。',
    textRule: '英文必填；不能包含 < 或 >。',
    outputRule: '2–10 位大写字母或数字，例如 BTC。',
    plainRule: '1–40 个字符，不能包含 < 或 >。',
    intRule: '{min} 到 {max} 的整数。',
    amountRule: '正的 USDT 金额，最多 6 位小数。',
    ppm: '每日百万分率：{pct}%',
  },
});

type Row = z.infer<typeof miningAdminProductSchema>;
type Values = Omit<MiningProductInput, 'id' | 'name' | 'description'> & {
  name: LocalizedText;
  description: LocalizedText;
};

/** Miner products: create, edit, enable. */
export function MinerProductsPage() {
  const t = useT();
  const language = useLanguage();
  const shown = (text: LocalizedText) => (language === 'zh-CN' ? text.zh_CN : undefined) ?? text.en;
  const int = (min: number, max: number) => [
    { required: true, type: 'integer' as const, min, max, message: t('intRule', { min, max }) },
  ];
  const amount = [
    { required: true, pattern: decimalPattern(6), message: t('amountRule') },
    { pattern: /[1-9]/, message: t('amountRule') },
  ];
  const plain = [
    { required: true, whitespace: true, max: 40, pattern: /^[^<>]*$/, message: t('plainRule') },
  ];
  return (
    <CatalogEditor<Row, Values>
      testId="miners"
      queryKey={minerProductsQueryKey}
      load={() => getMinerProducts()}
      save={(values, row) =>
        saveMinerProduct({
          ...values,
          name: mergeLocalized(row?.texts.name, values.name),
          description: mergeLocalized(row?.texts.description, values.description),
          ...(row ? { id: row.id } : {}),
        })
      }
      rowKey={(row) => row.id}
      note={<Alert type="info" title={t('note')} style={{ marginBottom: 16 }} showIcon />}
      columns={[
        { title: t('name'), key: 'name', render: (_: unknown, row) => shown(row.texts.name) },
        { title: t('output'), dataIndex: 'output' },
        { title: t('periodDays'), dataIndex: 'periodDays' },
        {
          title: t('unitPrice'),
          dataIndex: 'unitPrice',
          render: (v: string) => <Amount value={v} />,
        },
        {
          title: t('minInvestment'),
          dataIndex: 'minInvestment',
          render: (v: string) => <Amount value={v} />,
        },
        { title: t('dailyRate'), dataIndex: 'dailyRatePpm' },
        { title: t('enabled'), dataIndex: 'enabled', render: (on: boolean) => <OnOff on={on} /> },
        { title: t('sort'), dataIndex: 'sort' },
      ]}
      toForm={(row) => ({
        slug: row.slug,
        name: row.texts.name,
        description: row.texts.description,
        output: row.output,
        hashrate: row.hashrate,
        power: row.power,
        periodDays: row.periodDays,
        unitPrice: row.unitPrice,
        minInvestment: row.minInvestment,
        maxQuantity: row.maxQuantity,
        dailyRatePpm: row.dailyRatePpm,
        enabled: row.enabled,
        sort: row.sort,
      })}
      blank={{
        slug: '',
        name: { en: '' },
        description: { en: '' },
        output: 'BTC',
        hashrate: '',
        power: '',
        periodDays: 30,
        unitPrice: '100',
        minInvestment: '100',
        maxQuantity: 10,
        dailyRatePpm: 3_000,
        enabled: false,
        sort: 10,
      }}
      title={(row) => (row ? t('edit', { name: shown(row.texts.name) }) : t('create'))}
      fields={() => (
        <>
          <Form.Item
            name="slug"
            label={t('slug')}
            rules={[{ required: true, pattern: /^[a-z0-9-]{1,64}$/, message: t('slugRule') }]}
          >
            <Input data-testid="miner-slug" />
          </Form.Item>
          <LocalizedInputs
            name="name"
            label={t('name')}
            max={80}
            requiredText={t('textRule')}
            testId="miner-name"
          />
          <LocalizedInputs
            name="description"
            label={t('description')}
            max={4000}
            rows={3}
            requiredText={t('textRule')}
            testId="miner-description"
          />
          <Form.Item
            name="output"
            label={t('output')}
            rules={[{ required: true, pattern: /^[A-Z0-9]{2,10}$/, message: t('outputRule') }]}
          >
            <Input style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="hashrate" label={t('hashrate')} rules={plain}>
            <Input style={{ width: 220 }} data-testid="miner-hashrate" />
          </Form.Item>
          <Form.Item name="power" label={t('power')} rules={plain}>
            <Input style={{ width: 220 }} data-testid="miner-power" />
          </Form.Item>
          <Form.Item
            name="periodDays"
            label={t('periodDays')}
            rules={int(1, MINING_PERIOD_MAX_DAYS)}
          >
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="unitPrice" label={t('unitPrice')} rules={amount}>
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="minInvestment" label={t('minInvestment')} rules={amount}>
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="maxQuantity" label={t('maxQuantity')} rules={int(1, 1_000_000)}>
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name="dailyRatePpm"
            label={t('dailyRate')}
            rules={int(1, MINING_DAILY_RATE_MAX_PPM)}
          >
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
            <Switch data-testid="miner-enabled" />
          </Form.Item>
          <Form.Item name="sort" label={t('sort')} rules={int(0, 10_000)}>
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
        </>
      )}
    />
  );
}
