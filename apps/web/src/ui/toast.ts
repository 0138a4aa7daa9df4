import type { ToastShowProps } from 'antd-mobile/es/components/toast';

/** The text last shown and until when: the same text again before then is not shown again. */
let last: { content: string; untilMs: number } | undefined;

/**
 * antd-mobile's Toast, downloaded the first time a message shows: its mask brings the animation
 * library (react-spring) that the first screens do not otherwise need. Toasts come after a
 * reply or a tap, so the wait for the chunk (cached after the first) goes unnoticed.
 *
 * A text still on screen is not shown again: requests that fail together (a page's parallel
 * GETs when the connection drops) would otherwise restart the same toast once each.
 */
export function showToast(props: ToastShowProps): void {
  if (typeof props.content === 'string') {
    const nowMs = Date.now();
    if (last && last.content === props.content && nowMs < last.untilMs) return;
    last = { content: props.content, untilMs: nowMs + (props.duration ?? 2000) };
  }
  void Promise.all([import('antd-mobile/es/components/toast'), import('./antd-render.ts')]).then(([{ default: Toast }]) => Toast.show(props));
}
