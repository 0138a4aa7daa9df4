import type { QueueUser as QueueUserData } from '@tradewind/contract/operator';
import { Space, Tag } from 'antd';
import { Link } from 'react-router';
import { defineStrings } from '@/lib/i18n.ts';

const useT = defineStrings({
  en: {
    verified: 'Verified',
    unverified: 'Not verified',
    frozen: 'Frozen',
    history: 'Open the user’s page (history)',
  },
  'zh-CN': {
    verified: '已实名',
    unverified: '未实名',
    frozen: '已冻结',
    history: '打开用户页面（历史记录）',
  },
});

/**
 * Whose a queue item is: the uid, linking to the user's page (their history), and the flags a
 * reviewer weighs before deciding. Every review queue shows it.
 */
export function QueueUser({ user }: { user: QueueUserData }) {
  const t = useT();
  return (
    <Space size={4} wrap>
      <Link
        to={`/users/${user.uid}`}
        title={t('history')}
        data-testid="queue-user-link"
        onClick={(event) => event.stopPropagation()}
      >
        {user.uid}
      </Link>
      {user.verified ? <Tag color="green">{t('verified')}</Tag> : <Tag>{t('unverified')}</Tag>}
      {user.frozen ? <Tag color="red">{t('frozen')}</Tag> : null}
    </Space>
  );
}
