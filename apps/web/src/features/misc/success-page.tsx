import { Button, Result } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate, useSearchParams } from '@/lib/router.tsx';

/** The success screen; `?title=` may name one of the success messages (spec §8). */
const SUCCESS_KEYS = [
  'operation',
  'sent',
  'registration',
  'change',
  'vote',
  'reward',
  'settlement',
  'mission',
] as const;

export function SuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const requested = params.get('title');
  const key = SUCCESS_KEYS.find((k) => k === requested) ?? 'operation';
  return (
    <div className="tw-page" style={{ background: 'var(--tw-surface)' }}>
      <Result status="success" title={t(`success.${key}`)} />
      <div style={{ padding: '0 24px' }}>
        <Button block color="primary" size="large" onClick={() => navigate('/', { replace: true })}>
          {t('common.back_home')}
        </Button>
      </div>
    </div>
  );
}
