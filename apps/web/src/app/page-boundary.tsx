import { Component, type ErrorInfo, type ReactNode, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useLocation } from '@/lib/router.tsx';

/** The address of the file a failed dynamic import names (Chromium and Firefox put it in the message; Vite's CSS preload too). */
export function failedFileUrl(error: unknown): string | undefined {
  return error instanceof Error
    ? /https?:\/\/[^\s'"]+?\.(?:js|css)\b/.exec(error.message)?.[0]
    : undefined;
}

/**
 * True when the page's file is gone from the server: a deploy replaced the build this tab
 * started with, and only a reload brings the new one. A file that did not arrive (offline, a
 * dropped connection) is not gone, and is downloaded again.
 */
async function fileGone(error: unknown): Promise<boolean> {
  const url = failedFileUrl(error);
  if (!url) return false;
  try {
    const response = await fetch(url, { method: 'HEAD', cache: 'no-store' });
    return (
      response.status === 404 ||
      response.status === 410 ||
      (response.ok && !/javascript|css/.test(response.headers.get('content-type') ?? ''))
    );
  } catch {
    return false;
  }
}

interface BoundaryProps {
  /** Called when the page failed: the next render of the page downloads its code again. */
  onFailed: () => void;
  children: ReactNode;
}

/**
 * Around each page (`page()`): a page whose code did not download (after its retries), or that
 * failed as it rendered, shows "could not load this page" with a retry, never a blank screen.
 */
export class PageBoundary extends Component<BoundaryProps, { error: unknown; failed: boolean }> {
  override state = { error: null as unknown, failed: false };
  /** A retry that failed again, when the error names no file to check: the deploy may have changed. */
  private retried = false;

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  override componentDidCatch(_error: unknown, _info: ErrorInfo): void {
    this.props.onFailed();
  }

  private retry = async (): Promise<void> => {
    const { error } = this.state;
    if ((await fileGone(error)) || (this.retried && !failedFileUrl(error))) {
      window.location.reload();
      return;
    }
    this.retried = true;
    this.setState({ error: null, failed: false });
  };

  override render(): ReactNode {
    return this.state.failed ? <PageLoadFailed onRetry={this.retry} /> : this.props.children;
  }
}

/** "Could not load this page. Check your connection and retry." in the first screens' messages (`common`), which every page has. */
export function PageLoadFailed({ onRetry }: { onRetry: () => Promise<void> }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [busy, setBusy] = useState(false);
  const retry = () => {
    setBusy(true);
    void onRetry().finally(() => setBusy(false));
  };
  return (
    <div className="tw-page-failed" role="alert">
      <svg className="tw-page-failed-icon" viewBox="0 0 48 48" aria-hidden>
        <circle cx="24" cy="24" r="22" fill="none" stroke="currentColor" strokeWidth="3" />
        <path d="M24 12v15" stroke="currentColor" strokeWidth="3.5" strokeLinecap="round" />
        <circle cx="24" cy="34" r="2.3" fill="currentColor" />
      </svg>
      <h1>{t('common.page_load_failed')}</h1>
      <p className="tw-muted">{t('common.check_connection')}</p>
      <button
        type="button"
        className="tw-retry-button"
        onClick={retry}
        disabled={busy}
        aria-busy={busy}
      >
        {t('common.retry')}
      </button>
      {pathname !== '/' && (
        <Link to="/" className="tw-link">
          {t('common.back_home')}
        </Link>
      )}
    </div>
  );
}
