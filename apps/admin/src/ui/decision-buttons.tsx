import { App, Button, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';

const useT = defineStrings({
  en: {
    approve: 'Approve',
    reject: 'Reject',
    rejectTitle: 'Reject: give the reason',
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
}

/** Approve, or reject with a reason the user will see (the server requires it too). */
export function DecisionButtons({ onDecide, approveLabel, rejectLabel, disabled }: DecisionButtonsProps) {
  const t = useT();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<'approve' | 'reject'>();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();

  async function decide(decision: 'approve' | 'reject', why?: string) {
    setBusy(decision);
    try {
      await onDecide(decision, why);
      message.success(t('done'));
      setRejecting(false);
      setReason('');
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <>
      <Space>
        <Button type="primary" loading={busy === 'approve'} disabled={disabled || busy !== undefined} onClick={() => decide('approve')} data-testid="decision-approve">
          {approveLabel ?? t('approve')}
        </Button>
        <Button danger disabled={disabled || busy !== undefined} onClick={() => setRejecting(true)} data-testid="decision-reject">
          {rejectLabel ?? t('reject')}
        </Button>
      </Space>
      <Modal
        open={rejecting}
        title={t('rejectTitle')}
        okText={t('confirm')}
        cancelText={t('cancel')}
        okButtonProps={{ danger: true, loading: busy === 'reject', 'data-testid': 'decision-reject-confirm' }}
        onCancel={() => setRejecting(false)}
        onOk={() => {
          const trimmed = reason.trim();
          if (!trimmed) {
            setReasonError(t('reasonRequired'));
            return;
          }
          setReasonError(undefined);
          void decide('reject', trimmed);
        }}
      >
        <Input.TextArea
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={500}
          showCount
          rows={3}
          status={reasonError ? 'error' : undefined}
          data-testid="decision-reason"
        />
        <div style={{ color: reasonError ? '#ff4d4f' : '#888', marginTop: 4 }}>{reasonError ?? t('reasonHelp')}</div>
      </Modal>
    </>
  );
}
