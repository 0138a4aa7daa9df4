import {
  ASSET_MAX_CONFIRMATIONS,
  type AdminAsset,
  type AssetSave,
} from '@tradewind/contract/catalog';
import { Alert, Form, Input, InputNumber, Switch } from 'antd';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { CatalogEditor, OnOff, decimalPattern } from '@/ui/catalog-editor.tsx';
import { assetsQueryKey, getAssets } from './api/get-assets.ts';
import { saveAsset } from './api/save-asset.ts';

const useT = defineStrings({
  en: {
    code: 'Asset',
    deposit: 'Deposits',
    withdraw: 'Withdrawals',
    withdrawFee: 'Withdrawal fee',
    withdrawMin: 'Min withdrawal',
    depositMin: 'Min deposit',
    confirmations: 'Confirmations',
    edit: 'Edit {code}',
    note: 'Requests already made keep the fee they were made with. The scale of an asset never changes.',
    amountRule: 'An amount of at least 0 with at most {n} decimals.',
    confirmationsRule: 'A whole number from 0 to {max}.',
  },
  'zh-CN': {
    code: '资产',
    deposit: '充值',
    withdraw: '提现',
    withdrawFee: '提现手续费',
    withdrawMin: '最小提现额',
    depositMin: '最小充值额',
    confirmations: '确认数',
    edit: '编辑 {code}',
    note: '已提交的申请按提交时的手续费处理。资产精度不可更改。',
    amountRule: '不小于 0 的金额，最多 {n} 位小数。',
    confirmationsRule: '0 到 {max} 的整数。',
  },
});

type Values = Omit<AssetSave, 'code'> & { code: string; scale: number };

/** Assets: deposit and withdrawal switches, withdrawal fee and minimum, deposit minimum, confirmations. */
export function AssetsPage() {
  const t = useT();
  const onOff = (on: boolean) => <OnOff on={on} />;
  return (
    <CatalogEditor<AdminAsset, Values>
      testId="assets"
      queryKey={assetsQueryKey}
      load={() => getAssets()}
      save={({ scale: _scale, ...values }) => saveAsset(values)}
      rowKey={(row) => row.code}
      note={<Alert type="info" title={t('note')} style={{ marginBottom: 16 }} showIcon />}
      columns={[
        { title: t('code'), dataIndex: 'code' },
        { title: t('deposit'), dataIndex: 'depositEnabled', render: onOff },
        { title: t('withdraw'), dataIndex: 'withdrawEnabled', render: onOff },
        {
          title: t('withdrawFee'),
          dataIndex: 'withdrawFee',
          render: (v: string) => <Amount value={v} />,
        },
        {
          title: t('withdrawMin'),
          dataIndex: 'withdrawMin',
          render: (v: string) => <Amount value={v} />,
        },
        {
          title: t('depositMin'),
          dataIndex: 'depositMin',
          render: (v: string) => <Amount value={v} />,
        },
        { title: t('confirmations'), dataIndex: 'confirmations' },
      ]}
      toForm={({ name: _name, ...row }) => row}
      title={(row) => t('edit', { code: row?.code ?? '' })}
      fields={(form) => {
        const scale = Number(form.getFieldValue('scale') ?? 8);
        const amountRules = [
          {
            required: true,
            pattern: decimalPattern(scale),
            message: t('amountRule', { n: scale }),
          },
        ];
        return (
          <>
            <Form.Item name="code" hidden>
              <Input />
            </Form.Item>
            <Form.Item name="scale" hidden>
              <InputNumber />
            </Form.Item>
            <Form.Item name="depositEnabled" label={t('deposit')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="withdrawEnabled" label={t('withdraw')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="withdrawFee" label={t('withdrawFee')} rules={amountRules}>
              <Input style={{ width: 220 }} data-testid="asset-withdraw-fee" />
            </Form.Item>
            <Form.Item name="withdrawMin" label={t('withdrawMin')} rules={amountRules}>
              <Input style={{ width: 220 }} />
            </Form.Item>
            <Form.Item name="depositMin" label={t('depositMin')} rules={amountRules}>
              <Input style={{ width: 220 }} />
            </Form.Item>
            <Form.Item
              name="confirmations"
              label={t('confirmations')}
              rules={[
                {
                  required: true,
                  type: 'integer',
                  min: 0,
                  max: ASSET_MAX_CONFIRMATIONS,
                  message: t('confirmationsRule', { max: ASSET_MAX_CONFIRMATIONS }),
                },
              ]}
            >
              <InputNumber precision={0} style={{ width: 160 }} />
            </Form.Item>
          </>
        );
      }}
    />
  );
}
