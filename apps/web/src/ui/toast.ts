import type { ToastShowProps } from 'antd-mobile/es/components/toast';

/** Every toast closes after 2000 ms (spec §8, §9). */
export const TOAST_DURATION_MS = 2000;
/** The check-in's reward stays a little longer: it names the points and the streak. */
export const CHECKIN_TOAST_DURATION_MS = 2500;

/** A toast's props, its duration limited to the spec's two. */
export type AppToastProps = Omit<ToastShowProps, 'duration'> & {
  duration?: typeof TOAST_DURATION_MS | typeof CHECKIN_TOAST_DURATION_MS;
};

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
export function showToast(props: AppToastProps): void {
  const shown = withDuration(props);
  if (typeof shown.content === 'string' && isRepeatToast(shown.content, shown.duration)) return;
  void Promise.all([import('antd-mobile/es/components/toast'), import('./antd-render.ts')]).then(
    ([{ default: Toast }]) => Toast.show(shown),
  );
}

/** The props handed to antd-mobile: the duration always set, 2000 ms unless the caller chose 2500. */
export function withDuration(props: AppToastProps): ToastShowProps & { duration: number } {
  return { ...props, duration: props.duration ?? TOAST_DURATION_MS };
}
