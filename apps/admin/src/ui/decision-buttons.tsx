import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { MoneyConfirm, MoneyFacts, type MoneySummary, useConfirmGate } from './money-confirm.tsx';
import { ReasonModal } from './reason-modal.tsx';

const useT = defineStrings({
  en: {
    approve: 'Approve',
    reject: 'Reject',
    rejectTitle: 'Reject: give the reason',
    reason: 'Reason',
    reasonHelp: 'The user sees this reason.',
    reasonRequired: 'A reason is required to reject.',
    confirm: 'Reject',
    cancel: 'Cancel',
    done: 'Done',
  },
  'zh-CN': {
    approve: '通过',
    reject: '拒绝',
    rejectTitle: '拒绝：请填写原因',
    reason: '原因',
    reasonHelp: '用户会看到此原因。',
    reasonRequired: '拒绝时必须填写原因。',
    confirm: '拒绝',
    cancel: '取消',
    done: '已完成',
  },
});

export interface DecisionButtonsProps {
  /** Called with the decision; a rejection always carries a non-empty reason. Throw ApiError to show it. */
  onDecide: (decision: 'approve' | 'reject', reason?: string) => Promise<unknown>;
  approveLabel?: string;
  rejectLabel?: string;
  disabled?: boolean;
  /**
   * What approving does with whose money: approval then opens this confirmation first, and the
   * rejection's reason dialog shows the same facts. Every decision that moves or releases money has one.
   */
  confirm?: MoneySummary;
}

/** Approve, or reject with a reason the user will see (the server requires it too). */
export function DecisionButtons({
  onDecide,
  approveLabel,
  rejectLabel,
  disabled,
  confirm,
}: DecisionButtonsProps) {
  const t = useT();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<'approve' | 'reject'>();
  const [rejecting, setRejecting] = useState(false);
  const gate = useConfirmGate<MoneySummary>();

  async function decide(decision: 'approve' | 'reject', why?: string): Promise<boolean> {
    setBusy(decision);
    try {
      await onDecide(decision, why);
      message.success(t('done'));
      setRejecting(false);
      return true;
    } catch (error) {
      message.error(errorText(error));
      return false;
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <>
      <Space>
        <Button
          type="primary"
          loading={busy === 'approve'}
          disabled={disabled || busy !== undefined}
          onClick={() => (confirm ? gate.press(confirm) : void decide('approve'))}
          data-testid="decision-approve"
        >
          {approveLabel ?? t('approve')}
        </Button>
        <Button
          danger
          disabled={disabled || busy !== undefined}
          onClick={() => setRejecting(true)}
          data-testid="decision-reject"
        >
          {rejectLabel ?? t('reject')}
        </Button>
      </Space>
      <ReasonModal
        open={rejecting}
        title={t('rejectTitle')}
        help={
          confirm ? (
            <>
              {t('reasonHelp')}
              <div style={{ marginTop: 12 }}>
                <MoneyFacts summary={confirm} />
              </div>
            </>
          ) : (
            t('reasonHelp')
          )
        }
        label={t('reason')}
        okText={t('confirm')}
        danger
        cancelText={t('cancel')}
        requiredText={t('reasonRequired')}
        loading={busy === 'reject'}
        onCancel={() => setRejecting(false)}
        onSubmit={(reason) => void decide('reject', reason)}
        testIds={{ reason: 'decision-reason', confirm: 'decision-reject-confirm' }}
      />
      <MoneyConfirm
        summary={gate.state.phase === 'idle' ? undefined : gate.state.summary}
        loading={gate.state.phase === 'sending'}
        onConfirm={() => gate.confirm(() => decide('approve'))}
        onCancel={gate.cancel}
      />
    </>
  );
}
