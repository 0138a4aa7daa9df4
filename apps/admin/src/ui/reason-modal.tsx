import { Form, Input, Modal, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface ReasonModalProps {
  open: boolean;
  title: string;
  /** What the action does, above the reason. */
  help: ReactNode;
  label: string;
  okText: string;
  cancelText: string;
  /** A red button: the action takes something away (disable, cancel, unpublish). */
  danger?: boolean;
  /** The message when the reason is left empty; without it, the reason is optional. */
  requiredText?: string;
  loading: boolean;
  onCancel: () => void;
  /** The trimmed reason, or undefined when an optional one was left empty. */
  onSubmit: (reason: string | undefined) => void;
  /** data-testid of the reason's field and of the confirming button. */
  testIds?: { reason: string; confirm: string };
}

/** Confirms an operator's action with the reason the audit log keeps (and, where it says so, the user reads). */
export function ReasonModal(props: ReasonModalProps) {
  const [form] = Form.useForm<{ reason?: string }>();
  return (
    <Modal
      open={props.open}
      title={props.title}
      okText={props.okText}
      okButtonProps={{
        danger: props.danger,
        ...(props.testIds ? { 'data-testid': props.testIds.confirm } : {}),
      }}
      cancelText={props.cancelText}
      confirmLoading={props.loading}
      onCancel={props.onCancel}
      onOk={() => form.submit()}
      afterClose={() => form.resetFields()}
    >
      <Typography.Paragraph type="secondary">{props.help}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ reason }) => props.onSubmit(reason?.trim() || undefined)}
      >
        <Form.Item
          name="reason"
          label={props.label}
          rules={
            props.requiredText
              ? [{ required: true, whitespace: true, message: props.requiredText }]
              : []
          }
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid={props.testIds?.reason} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
