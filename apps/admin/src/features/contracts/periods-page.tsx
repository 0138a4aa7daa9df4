import {
  type AdminPeriod,
  PERIOD_FEE_MAX_PPM,
  PERIOD_MAX_SECONDS,
  PERIOD_PAYOUT_MAX_PPM,
  type PeriodSave,
} from '@tradewind/contract/catalog';
import { Alert, Form, Input, InputNumber, Switch } from 'antd';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { CatalogEditor, OnOff, decimalPattern, notAbove } from '@/ui/catalog-editor.tsx';
import { getPeriods, periodsQueryKey } from './api/get-periods.ts';
import { savePeriod } from './api/save-period.ts';

const useT = defineStrings({
  en: {
    seconds: 'Duration (s)',
    payout: 'Payout rate',
    fee: 'Fee rate',
    ppm: 'parts per million: {pct} %',
    minStake: 'Min stake (USDT)',
    maxStake: 'Max stake (USDT)',
    enabled: 'Enabled',
    sort: 'Order',
    create: 'New period',
    edit: 'Edit the {s} s period',
    note: 'A change applies to orders placed after it: open orders keep the terms they were placed with.',
    secondsRule: 'A whole number of seconds from 1 to {max}.',
    payoutRule: 'A whole number from 1 to {max} (1,000,000 = 100 %).',
    feeRule: 'A whole number from 0 to {max} (below 100 %).',
    stakeRule: 'A positive USDT amount with at most 6 decimals.',
    minAboveMax: 'The minimum must not be above the maximum.',
    sortRule: 'A whole number from 0 to 10,000.',
  },
  'zh-CN': {
    seconds: '时长（秒）',
    payout: '收益率',
    fee: '手续费率',
    ppm: '百万分率：{pct}%',
    minStake: '最小下单额（USDT）',
    maxStake: '最大下单额（USDT）',
    enabled: '启用',
    sort: '排序',
    create: '新建周期',
    edit: '编辑 {s} 秒周期',
    note: '修改只影响之后的新订单：未结算订单按下单时的条款结算。',
    secondsRule: '1 到 {max} 的整数秒。',
    payoutRule: '1 到 {max} 的整数（1,000,000 = 100%）。',
    feeRule: '0 到 {max} 的整数（低于 100%）。',
    stakeRule: '正的 USDT 金额，最多 6 位小数。',
    minAboveMax: '最小值不能大于最大值。',
    sortRule: '0 到 10000 的整数。',
  },
});

/** 850000 → "85" (percent, exact). */
export const ppmPercent = (ppm: number) => {
  const text = (ppm / 10_000).toFixed(4);
  return text.replace(/\.?0+$/, '');
};

type Values = Omit<PeriodSave, 'id'>;

/** Contract periods: duration, payout and fee rates, stake limits, enabled. */
export function PeriodsPage() {
  const t = useT();
  const stakeRules = (extra: object[] = []) => [
    { required: true, pattern: decimalPattern(6), message: t('stakeRule') },
    { pattern: /[1-9]/, message: t('stakeRule') },
    ...extra,
  ];
  return (
    <CatalogEditor<AdminPeriod, Values>
      testId="periods"
      queryKey={periodsQueryKey}
      load={() => getPeriods()}
      save={(values, row) => savePeriod({ ...values, ...(row ? { id: row.id } : {}) })}
      rowKey={(row) => row.id}
      note={<Alert type="info" title={t('note')} style={{ marginBottom: 16 }} showIcon />}
      columns={[
        { title: t('seconds'), dataIndex: 'seconds' },
        {
          title: t('payout'),
          dataIndex: 'payoutRatePpm',
          render: (ppm: number) => `${ppmPercent(ppm)} %`,
        },
        {
          title: t('fee'),
          dataIndex: 'feeRatePpm',
          render: (ppm: number) => `${ppmPercent(ppm)} %`,
        },
        {
          title: t('minStake'),
          dataIndex: 'minStake',
          render: (v: string) => <Amount value={v} />,
        },
        {
          title: t('maxStake'),
          dataIndex: 'maxStake',
          render: (v: string) => <Amount value={v} />,
        },
        { title: t('enabled'), dataIndex: 'enabled', render: (on: boolean) => <OnOff on={on} /> },
        { title: t('sort'), dataIndex: 'sort' },
      ]}
      toForm={({ id: _id, ...row }) => row}
      blank={{
        seconds: 180,
        payoutRatePpm: 850_000,
        feeRatePpm: 2_000,
        minStake: '10',
        maxStake: '10000',
        enabled: false,
        sort: 10,
      }}
      title={(row) => (row ? t('edit', { s: row.seconds }) : t('create'))}
      fields={(form) => (
        <>
          <Form.Item
            name="seconds"
            label={t('seconds')}
            rules={[
              {
                required: true,
                type: 'integer',
                min: 1,
                max: PERIOD_MAX_SECONDS,
                message: t('secondsRule', { max: PERIOD_MAX_SECONDS }),
              },
            ]}
          >
            <InputNumber precision={0} style={{ width: 200 }} data-testid="period-seconds" />
          </Form.Item>
          <Form.Item
            name="payoutRatePpm"
            label={t('payout')}
            extra={
              <Form.Item noStyle shouldUpdate>
                {() =>
                  t('ppm', { pct: ppmPercent(Number(form.getFieldValue('payoutRatePpm')) || 0) })
                }
              </Form.Item>
            }
            rules={[
              {
                required: true,
                type: 'integer',
                min: 1,
                max: PERIOD_PAYOUT_MAX_PPM,
                message: t('payoutRule', { max: PERIOD_PAYOUT_MAX_PPM }),
              },
            ]}
          >
            <InputNumber precision={0} style={{ width: 200 }} data-testid="period-payout" />
          </Form.Item>
          <Form.Item
            name="feeRatePpm"
            label={t('fee')}
            extra={
              <Form.Item noStyle shouldUpdate>
                {() => t('ppm', { pct: ppmPercent(Number(form.getFieldValue('feeRatePpm')) || 0) })}
              </Form.Item>
            }
            rules={[
              {
                required: true,
                type: 'integer',
                min: 0,
                max: PERIOD_FEE_MAX_PPM,
                message: t('feeRule', { max: PERIOD_FEE_MAX_PPM }),
              },
            ]}
          >
            <InputNumber precision={0} style={{ width: 200 }} data-testid="period-fee" />
          </Form.Item>
          <Form.Item
            name="minStake"
            label={t('minStake')}
            dependencies={['maxStake']}
            rules={stakeRules([notAbove('maxStake', t('minAboveMax'))])}
          >
            <Input style={{ width: 200 }} data-testid="period-min-stake" />
          </Form.Item>
          <Form.Item name="maxStake" label={t('maxStake')} rules={stakeRules()}>
            <Input style={{ width: 200 }} data-testid="period-max-stake" />
          </Form.Item>
          <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
            <Switch data-testid="period-enabled" />
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
