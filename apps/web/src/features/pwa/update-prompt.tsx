import { Button, ProgressBar } from 'antd-mobile';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { dismissUpdate, getUpdateState, startUpdate, subscribeUpdate } from './app-update.ts';
import './update-prompt.css';

/** The update card: "a new version is available" → "downloading" → the page reloads into it. */
export default function UpdatePrompt() {
  const { t } = useTranslation();
  const state = useSyncExternalStore(subscribeUpdate, getUpdateState);
  if (state.phase === 'idle') return null;
  const percent =
    state.phase === 'downloading' && state.total > 0
      ? Math.round((state.done / state.total) * 100)
      : 0;
  return (
    <div className="tw-update" role="status" aria-live="polite">
      <img className="tw-update-icon" src="/icons/icon-192.png" alt="" width={40} height={40} />
      <div className="tw-update-body">
        {state.phase === 'available' && (
          <>
            <div className="tw-update-title">{t('pwa.update_available')}</div>
            <div className="tw-update-text">{t('pwa.update_text')}</div>
            <div className="tw-update-actions">
              <Button size="small" fill="none" onClick={dismissUpdate}>
                {t('pwa.later')}
              </Button>
              <Button size="small" color="primary" onClick={startUpdate}>
                {t('pwa.update')}
              </Button>
            </div>
          </>
        )}
        {state.phase === 'downloading' && (
          <>
            <div className="tw-update-title">{t('pwa.downloading')}</div>
            <ProgressBar percent={percent} text={`${percent}%`} />
            <div className="tw-update-text">{t('pwa.restart_note')}</div>
          </>
        )}
        {state.phase === 'failed' && (
          <>
            <div className="tw-update-title">{t('pwa.failed')}</div>
            <div className="tw-update-text">{t('pwa.failed_text')}</div>
            <div className="tw-update-actions">
              <Button size="small" fill="none" onClick={dismissUpdate}>
                {t('pwa.later')}
              </Button>
              <Button size="small" color="primary" onClick={startUpdate}>
                {t('pwa.retry')}
              </Button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
