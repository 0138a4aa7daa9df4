import {
  type AdminLoanProduct,
  LOAN_OVERDUE_RATE_MAX_PPM,
  LOAN_PERIOD_MAX_DAYS,
  type LoanProductSave,
} from '@tradewind/contract/catalog';
import { LOAN_DAILY_RATE_MAX_PPM, LOAN_METHODS } from '@tradewind/contract/loans';
import { Alert, Form, Input, InputNumber, Select, Switch } from 'antd';
import { defineStrings, useLanguage } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { CatalogEditor, OnOff, decimalPattern, notAbove } from '@/ui/catalog-editor.tsx';
import { LocalizedInputs, type LocalizedText, mergeLocalized } from '@/ui/localized-inputs.tsx';
import { getLoanProducts, loanProductsQueryKey } from './api/get-loan-products.ts';
import { saveLoanProduct } from './api/save-loan-product.ts';

const useT = defineStrings({
  en: {
    slug: 'Slug',
    name: 'Name',
    institution: 'Institution',
    description: 'Description',
    minAmount: 'Min amount (USDT)',
    maxAmount: 'Max amount (USDT)',
    periods: 'Periods (days)',
    dailyRate: 'Daily rate (ppm)',
    overdueRate: 'Overdue daily rate (ppm)',
    method: 'Repayment',
    interest_first: 'Interest first',
    enabled: 'Enabled',
    sort: 'Order',
    create: 'New loan product',
    edit: 'Edit {name}',
    note: 'Loans already applied for keep the terms they were applied with.',
    slugRule: 'Lowercase letters, digits and dashes (1–64).',
    textRule: 'Required in English; no < or >.',
    amountRule: 'A positive USDT amount with at most 6 decimals.',
    minAboveMax: 'The minimum must not be above the maximum.',
    periodsRule: '1–12 different whole numbers of days from 1 to {max}.',
    intRule: 'A whole number from {min} to {max}.',
  },
  'zh-CN': {
    slug: '标识',
    name: '名称',
    institution: '机构',
    description: '说明',
    minAmount: '最低金额（USDT）',
    maxAmount: '最高金额（USDT）',
    periods: '期限（天）',
    dailyRate: '日利率（百万分率）',
    overdueRate: '逾期日利率（百万分率）',
    method: '还款方式',
    interest_first: '先息后本',
    enabled: '启用',
    sort: '排序',
    create: '新建贷款产品',
    edit: '编辑 {name}',
    note: '已申请的贷款按申请时的条款执行。',
    slugRule: '小写字母、数字和短横线（1–64 位）。',
    textRule: '英文必填；不能包含 < 或 >。',
    amountRule: '正的 USDT 金额，最多 6 位小数。',
    minAboveMax: '最小值不能大于最大值。',
    periodsRule: '1–12 个不同的天数，每个为 1 到 {max} 的整数。',
    intRule: '{min} 到 {max} 的整数。',
  },
});

type Values = Omit<LoanProductSave, 'id' | 'name' | 'institution' | 'description'> & {
  name: LocalizedText;
  institution: LocalizedText;
  description: LocalizedText;
};

/** Loan products: create, edit, enable. */
export function LoanProductsPage() {
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
  const periodsRule = {
    validator: (_: unknown, value: unknown) => {
      const days = Array.isArray(value) ? value.map(Number) : [];
      const ok =
        days.length >= 1 &&
        days.length <= 12 &&
        new Set(days).size === days.length &&
        days.every((d) => Number.isInteger(d) && d >= 1 && d <= LOAN_PERIOD_MAX_DAYS);
      return ok
        ? Promise.resolve()
        : Promise.reject(new Error(t('periodsRule', { max: LOAN_PERIOD_MAX_DAYS })));
    },
  };
  return (
    <CatalogEditor<AdminLoanProduct, Values>
      testId="loans"
      queryKey={loanProductsQueryKey}
      load={() => getLoanProducts()}
      save={(values, row) =>
        saveLoanProduct({
          ...values,
          periods: values.periods.map(Number),
          name: mergeLocalized(row?.name, values.name),
          institution: mergeLocalized(row?.institution, values.institution),
          description: mergeLocalized(row?.description, values.description),
          ...(row ? { id: row.id } : {}),
        })
      }
      rowKey={(row) => row.id}
      note={<Alert type="info" title={t('note')} style={{ marginBottom: 16 }} showIcon />}
      columns={[
        { title: t('name'), key: 'name', render: (_: unknown, row) => shown(row.name) },
        {
          title: t('institution'),
          key: 'institution',
          render: (_: unknown, row) => shown(row.institution),
        },
        {
          title: t('minAmount'),
          dataIndex: 'minAmount',
          render: (v: string) => <Amount value={v} />,
        },
        {
          title: t('maxAmount'),
          dataIndex: 'maxAmount',
          render: (v: string) => <Amount value={v} />,
        },
        { title: t('periods'), dataIndex: 'periods', render: (days: number[]) => days.join(', ') },
        { title: t('dailyRate'), dataIndex: 'dailyRatePpm' },
        { title: t('enabled'), dataIndex: 'enabled', render: (on: boolean) => <OnOff on={on} /> },
        { title: t('sort'), dataIndex: 'sort' },
      ]}
      toForm={({ id: _id, ...row }) => row}
      blank={{
        slug: '',
        name: { en: '' },
        institution: { en: '' },
        description: { en: '' },
        minAmount: '100',
        maxAmount: '10000',
        periods: [7, 30],
        dailyRatePpm: 500,
        overdueRatePpm: 1_000,
        method: 'interest_first',
        enabled: false,
        sort: 10,
      }}
      title={(row) => (row ? t('edit', { name: shown(row.name) }) : t('create'))}
      fields={() => (
        <>
          <Form.Item
            name="slug"
            label={t('slug')}
            rules={[{ required: true, pattern: /^[a-z0-9-]{1,64}$/, message: t('slugRule') }]}
          >
            <Input data-testid="loan-slug" />
          </Form.Item>
          <LocalizedInputs
            name="name"
            label={t('name')}
            max={80}
            requiredText={t('textRule')}
            testId="loan-name"
          />
          <LocalizedInputs
            name="institution"
            label={t('institution')}
            max={80}
            requiredText={t('textRule')}
          />
          <LocalizedInputs
            name="description"
            label={t('description')}
            max={4000}
            rows={3}
            requiredText={t('textRule')}
          />
          <Form.Item
            name="minAmount"
            label={t('minAmount')}
            dependencies={['maxAmount']}
            rules={[...amount, notAbove('maxAmount', t('minAboveMax'))]}
          >
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="maxAmount" label={t('maxAmount')} rules={amount}>
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item
            name="periods"
            label={t('periods')}
            rules={[periodsRule]}
            normalize={(value: unknown[]) =>
              value.map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v))
            }
          >
            <Select mode="tags" style={{ width: 320 }} tokenSeparators={[',', ' ']} open={false} />
          </Form.Item>
          <Form.Item
            name="dailyRatePpm"
            label={t('dailyRate')}
            rules={int(1, LOAN_DAILY_RATE_MAX_PPM)}
          >
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name="overdueRatePpm"
            label={t('overdueRate')}
            rules={int(1, LOAN_OVERDUE_RATE_MAX_PPM)}
          >
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="method" label={t('method')} rules={[{ required: true }]}>
            <Select
              style={{ width: 220 }}
              options={LOAN_METHODS.map((m) => ({ value: m, label: t(m) }))}
            />
          </Form.Item>
          <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="sort" label={t('sort')} rules={int(0, 10_000)}>
            <InputNumber precision={0} style={{ width: 160 }} />
          </Form.Item>
        </>
      )}
    />
  );
}
