import type { ToastShowProps } from 'antd-mobile/es/components/toast';

/** The text last shown and until when it stays on screen. */
let last: { content: string; untilMs: number } | undefined;

/**
 * True when `content` is the text still on screen (and then it is not shown again): requests
 * that fail together, a page's parallel GETs when the connection drops, would otherwise restart
 * the same toast once each. Otherwise notes it as the text on screen for `durationMs`.
 */
export function isRepeatToast(content: string, durationMs: number, nowMs = Date.now()): boolean {
  if (last && last.content === content && nowMs < last.untilMs) return true;
  last = { content, untilMs: nowMs + durationMs };
  return false;
}

/**
 * antd-mobile's Toast, downloaded the first time a message shows: its mask brings the animation
 * library (react-spring) that the first screens do not otherwise need. Toasts come after a
 * reply or a tap, so the wait for the chunk (cached after the first) goes unnoticed.
 */
export function showToast(props: ToastShowProps): void {
  if (typeof props.content === 'string' && isRepeatToast(props.content, props.duration ?? 2000))
    return;
  void Promise.all([import('antd-mobile/es/components/toast'), import('./antd-render.ts')]).then(
    ([{ default: Toast }]) => Toast.show(props),
  );
}
