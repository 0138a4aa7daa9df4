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

/** Pages `?next=` may return to; any other value is ignored, so a link cannot send the user elsewhere. */
const NEXT_PATHS = ['/Rewards', '/Shop', '/ShopOrders'] as const;

/**
 * `?detail=` adds a second success message under the title ("Mission accomplished", then
 * "Congratulations on receiving a reward"); `?next=` adds a button back to where the user was.
 */
export function SuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const requested = params.get('title');
  const key = SUCCESS_KEYS.find((k) => k === requested) ?? 'operation';
  const detail = SUCCESS_KEYS.find((k) => k === params.get('detail') && k !== key);
  const next = NEXT_PATHS.find((p) => p === params.get('next'));
  return (
    <div className="tw-page" style={{ background: 'var(--tw-surface)' }}>
      <Result
        status="success"
        title={t(`success.${key}`)}
        description={
          detail ? <span data-testid="success-detail">{t(`success.${detail}`)}</span> : undefined
        }
      />
      <div style={{ padding: '0 24px', display: 'grid', gap: 12 }}>
        {next && (
          <Button
            block
            color="primary"
            size="large"
            onClick={() => navigate(next, { replace: true })}
            data-testid="success-next"
          >
            {t('common.back')}
          </Button>
        )}
        <Button
          block
          color="primary"
          fill={next ? 'outline' : 'solid'}
          size="large"
          onClick={() => navigate('/', { replace: true })}
        >
          {t('common.back_home')}
        </Button>
      </div>
    </div>
  );
}
