import { ASSET_CODES, type AssetCode, type Wallet } from '@tradewind/contract/wallet';
import { signedAmountSchema } from '@tradewind/contract/user-admin';
import { Alert, App, Form, Input, Modal, Select, Typography } from 'antd';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { useSetFrozen } from './api/freeze-user.ts';
import { useRequestAdjustment } from './api/request-adjustment.ts';
import {
  type MoneyDetails,
  MoneyConfirm,
  type MoneySummary,
  useConfirmGate,
} from '@/ui/money-confirm.tsx';
import { useT } from './strings.ts';

/** An adjustment as the confirmations show it: whose wallet, which asset, credit or debit, why. */
export function adjustmentMoney(
  a: { uid: string; wallet: Wallet; asset: string; amount: string; reason: string },
  t: ReturnType<typeof useT>,
): MoneyDetails {
  const debit = a.amount.startsWith('-');
  return {
    uid: a.uid,
    asset: a.asset,
    amount: debit ? a.amount.slice(1) : a.amount.replace(/^\+/, ''),
    amountLabel: t(debit ? 'debit' : 'credit'),
    facts: [
      { label: t('wallet'), value: t(`wallet_${a.wallet}`) },
      { label: t('reasonUserSees'), value: a.reason },
    ],
  };
}

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

interface AdjustmentRequest {
  uid: string;
  wallet: Wallet;
  asset: AssetCode;
  amount: string;
  reason: string;
}

type MoneySummaryOf<R> = MoneySummary & { request: R };

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
  const gate = useConfirmGate<MoneySummaryOf<AdjustmentRequest>>();

  /** The form is checked first; the request goes out only from the confirmation. */
  async function submit() {
    const values = await form.validateFields();
    const request: AdjustmentRequest = {
      uid,
      wallet: values.wallet,
      asset: values.asset,
      amount: values.amount.trim(),
      reason: values.reason.trim(),
    };
    gate.press({
      ...adjustmentMoney(request, t),
      title: t('requestConfirmTitle', { uid }),
      effect: t('requestConfirmEffect'),
      okText: t('requestConfirmOk'),
      request,
    });
  }

  async function send(request: AdjustmentRequest): Promise<boolean> {
    try {
      await mutation.mutateAsync(request);
      message.success(t('requested'));
      onClose();
      return true;
    } catch (error) {
      // A refused field closes the confirmation so the form shows it.
      if (showFieldErrors(form, error)) return true;
      message.error(errorText(error));
      return false;
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
      <MoneyConfirm
        summary={gate.state.phase === 'idle' ? undefined : gate.state.summary}
        loading={gate.state.phase === 'sending'}
        onConfirm={() =>
          gate.confirm(() =>
            gate.state.phase === 'idle' ? Promise.resolve(false) : send(gate.state.summary.request),
          )
        }
        onCancel={gate.cancel}
      />
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
