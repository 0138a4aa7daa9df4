import { ASSET_CODES, type AssetCode, type Wallet } from '@tradewind/contract/wallet';
import { signedAmountSchema } from '@tradewind/contract/user-admin';
import { Alert, App, Form, Input, Modal, Select, Typography } from 'antd';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { useSetFrozen } from './api/freeze-user.ts';
import { useRequestAdjustment } from './api/request-adjustment.ts';
import { useT } from './strings.ts';

/** Freeze or unfreeze, with a reason (required: the server refuses an empty one as well). */
export function FreezeModal({
  uid,
  frozen,
  onClose,
}: {
  uid: string;
  frozen: boolean;
  onClose: () => void;
}) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const mutation = useSetFrozen(uid);

  async function submit() {
    const { reason } = await form.validateFields();
    try {
      const result = await mutation.mutateAsync({ frozen, reason: reason.trim() });
      message.success(frozen ? t('frozenDone', { n: result.sessionsRevoked }) : t('unfrozenDone'));
      onClose();
    } catch (error) {
      message.error(errorText(error));
    }
  }

  return (
    <Modal
      open
      title={t(frozen ? 'freezeTitle' : 'unfreezeTitle', { uid })}
      okText={t(frozen ? 'freeze' : 'unfreeze')}
      cancelText={t('cancel')}
      okButtonProps={{
        danger: frozen,
        loading: mutation.isPending,
        'data-testid': 'freeze-confirm',
      }}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        {t(frozen ? 'freezeExplain' : 'unfreezeExplain')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t('reason')}
          rules={[{ required: true, whitespace: true, message: t('reasonRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="freeze-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface AdjustmentForm {
  wallet: Wallet;
  asset: AssetCode;
  amount: string;
  reason: string;
}

/** Asks for an adjustment; nothing moves until a different admin approves it. */
export function AdjustmentModal({ uid, onClose }: { uid: string; onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<AdjustmentForm>();
  const wallet = Form.useWatch('wallet', form);
  const mutation = useRequestAdjustment();

  async function submit() {
    const values = await form.validateFields();
    try {
      await mutation.mutateAsync({
        uid,
        wallet: values.wallet,
        asset: values.asset,
        amount: values.amount.trim(),
        reason: values.reason.trim(),
      });
      message.success(t('requested'));
      onClose();
    } catch (error) {
      if (!showFieldErrors(form, error)) message.error(errorText(error));
    }
  }

  return (
    <Modal
      open
      width={560}
      title={t('adjustmentTitle', { uid })}
      okText={t('submit')}
      cancelText={t('cancel')}
      okButtonProps={{ loading: mutation.isPending, 'data-testid': 'adjust-confirm' }}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('adjustmentExplain')} />
      <Form
        form={form}
        layout="vertical"
        initialValues={{ wallet: 'spot', asset: 'USDT' }}
        onValuesChange={(changed: Partial<AdjustmentForm>) => {
          // The futures wallet holds USDT only.
          if (changed.wallet === 'futures') form.setFieldValue('asset', 'USDT');
        }}
      >
        <Form.Item name="wallet" label={t('wallet')} rules={[{ required: true }]}>
          <Select
            data-testid="adjust-wallet"
            options={[
              { value: 'spot', label: t('wallet_spot') },
              { value: 'futures', label: t('wallet_futures') },
            ]}
          />
        </Form.Item>
        <Form.Item name="asset" label={t('asset')} rules={[{ required: true }]}>
          <Select
            data-testid="adjust-asset"
            disabled={wallet === 'futures'}
            options={ASSET_CODES.map((code) => ({ value: code, label: code }))}
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('amount')}
          extra={t('amountHelp')}
          rules={[
            {
              validator: async (_, value: string | undefined) =>
                signedAmountSchema.safeParse(value ?? '').success
                  ? undefined
                  : Promise.reject(new Error(t('amountInvalid'))),
            },
          ]}
        >
          <Input data-testid="adjust-amount" inputMode="decimal" maxLength={40} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('reasonUserSees')}
          rules={[{ required: true, whitespace: true, message: t('reasonRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="adjust-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
