import { Space, Tag, Typography } from 'antd';
import { formatTime } from '@/lib/format.ts';

/** The colour of a two-person request's status tag, wherever one is listed. */
export const DECISION_STATUS_COLOR = {
  pending: 'gold',
  approved: 'green',
  rejected: 'red',
} as const;

export interface DecidedStatusProps {
  status: keyof typeof DECISION_STATUS_COLOR;
  /** The status in the reader's language. */
  label: string;
  decidedBy: string | null;
  decidedAt: string | null;
  decisionReason: string | null;
}

/** A decided request's status: its tag, who decided and when, and why. */
export function DecidedStatus({
  status,
  label,
  decidedBy,
  decidedAt,
  decisionReason,
}: DecidedStatusProps) {
  return (
    <Space direction="vertical" size={0}>
      <Tag color={DECISION_STATUS_COLOR[status]}>{label}</Tag>
      {decidedBy ? (
        <Typography.Text type="secondary">
          {decidedBy} · {decidedAt ? formatTime(decidedAt) : ''}
        </Typography.Text>
      ) : null}
      {decisionReason ? <Typography.Text type="secondary">{decisionReason}</Typography.Text> : null}
    </Space>
  );
}
