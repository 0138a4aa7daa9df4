import { type AdminPayeeAccount, type PayeeAccountSave } from '@tradewind/contract/catalog';
import { Alert, Form, Input, InputNumber, Switch } from 'antd';
import { defineStrings } from '@/lib/i18n.ts';
import { CatalogEditor, OnOff } from '@/ui/catalog-editor.tsx';
import { getPayeeAccounts, payeeAccountsQueryKey } from './api/get-payee-accounts.ts';
import { savePayeeAccount } from './api/save-payee-account.ts';

const useT = defineStrings({
  en: {
    bankName: 'Bank',
    accountName: 'Account name',
    accountNumber: 'Account number',
    phone: 'Phone',
    enabled: 'Enabled',
    sort: 'Order',
    create: 'New payee account',
    edit: 'Edit the {bank} account',
    note: "Users are shown the first enabled account in this order; with none enabled, card deposits are unavailable. Deposits already reported keep the account they were shown. With no accounts at all, the server's configured payee (CARD_PAYEE_*, or the demo payee in demo mode) applies.",
    textRule: '1–80 characters, without < or >.',
    numberRule: 'Digits, spaces or dashes (7–40).',
    phoneRule: 'A phone number, or empty.',
    sortRule: 'A whole number from 0 to 10,000.',
  },
  'zh-CN': {
    bankName: '银行',
    accountName: '户名',
    accountNumber: '账号',
    phone: '电话',
    enabled: '启用',
    sort: '排序',
    create: '新建收款账户',
    edit: '编辑 {bank} 账户',
    note: '用户看到按此顺序第一个启用的账户；没有启用的账户时，银行卡充值不可用。已提交的充值保留当时显示的账户。若没有任何账户，则使用服务器配置的收款人（CARD_PAYEE_*，演示模式下为演示收款人）。',
    textRule: '1–80 个字符，不能包含 < 或 >。',
    numberRule: '数字、空格或短横线（7–40 位）。',
    phoneRule: '电话号码，或留空。',
    sortRule: '0 到 10000 的整数。',
  },
});

type Values = Omit<PayeeAccountSave, 'id'>;

/** Card-deposit payee accounts: where users pay a bank-card deposit. */
export function PayeeAccountsPage() {
  const t = useT();
  const text = [
    { required: true, whitespace: true, max: 80, pattern: /^[^<>]*$/, message: t('textRule') },
  ];
  return (
    <CatalogEditor<AdminPayeeAccount, Values>
      testId="payees"
      queryKey={payeeAccountsQueryKey}
      load={() => getPayeeAccounts()}
      save={(values, row) =>
        savePayeeAccount({ ...values, phone: values.phone ?? '', ...(row ? { id: row.id } : {}) })
      }
      rowKey={(row) => row.id}
      note={<Alert type="info" title={t('note')} style={{ marginBottom: 16 }} showIcon />}
      columns={[
        { title: t('bankName'), dataIndex: 'bankName' },
        { title: t('accountName'), dataIndex: 'accountName' },
        { title: t('accountNumber'), dataIndex: 'accountNumber' },
        { title: t('phone'), dataIndex: 'phone' },
        { title: t('enabled'), dataIndex: 'enabled', render: (on: boolean) => <OnOff on={on} /> },
        { title: t('sort'), dataIndex: 'sort' },
      ]}
      toForm={({ id: _id, ...row }) => row}
      blank={{
        bankName: '',
        accountName: '',
        accountNumber: '',
        phone: '',
        enabled: true,
        sort: 0,
      }}
      title={(row) => (row ? t('edit', { bank: row.bankName }) : t('create'))}
      fields={() => (
        <>
          <Form.Item name="bankName" label={t('bankName')} rules={text}>
            <Input data-testid="payee-bank" />
          </Form.Item>
          <Form.Item name="accountName" label={t('accountName')} rules={text}>
            <Input data-testid="payee-name" />
          </Form.Item>
          <Form.Item
            name="accountNumber"
            label={t('accountNumber')}
            rules={[
              { required: true, pattern: /^\s*\d[\d -]{5,38}\d\s*$/, message: t('numberRule') },
            ]}
          >
            <Input data-testid="payee-number" />
          </Form.Item>
          <Form.Item
            name="phone"
            label={t('phone')}
            rules={[{ pattern: /^\s*(\+?[\d -]{5,24})?\s*$/, message: t('phoneRule') }]}
          >
            <Input />
          </Form.Item>
          <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
            <Switch />
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
