import { Button, ErrorBlock } from 'antd-mobile';
import { ApiError } from '@tradewind/http-client/api-error';
import { useTranslation } from '@/lib/i18n.ts';

interface LoadFailedProps {
  /** The query's error: a reply's message (e.g. "Too many requests. Try again in 12 s.") says more than the generic line. */
  error: unknown;
  /** What did not load ("Could not load your miners"); a generic line otherwise. */
  title?: string;
  onRetry: () => void;
  retrying?: boolean;
}

/**
 * What a screen shows when its data did not load for a reason other than "it does not exist"
 * (`isNotFound`): a rate limit, an outage, a dropped connection. Saying "does not exist" there
 * would tell the user that something they paid for is gone.
 */
export function LoadFailed({ error, title, onRetry, retrying = false }: LoadFailedProps) {
  const { t } = useTranslation();
  const description =
    error instanceof ApiError && error.message ? error.message : t('common.check_connection');
  return (
    <ErrorBlock
      status="disconnected"
      title={title ?? t('common.load_failed')}
      description={description}
      style={{ '--image-height': '120px', paddingTop: 24 }}
      data-testid="load-failed"
    >
      <Button
        color="primary"
        fill="outline"
        loading={retrying}
        onClick={onRetry}
        style={{ marginTop: 12 }}
      >
        {t('common.retry')}
      </Button>
    </ErrorBlock>
  );
}
