import type { MiningRentalStatus } from '@tradewind/contract/mining';
import { Tag } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';

const COLOR: Record<MiningRentalStatus, 'warning' | 'primary' | 'success' | 'danger'> = {
  under_review: 'warning',
  active: 'primary',
  completed: 'success',
  rejected: 'danger',
};

/** spec §4 miner status by its name: under review, active, completed, rejected. */
export function StatusTag({ status }: { status: MiningRentalStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOR[status]} fill="outline" data-status={status}>
      {t(`mining.status.${status}`)}
    </Tag>
  );
}
