import type { ToastShowProps } from 'antd-mobile/es/components/toast';

/**
 * antd-mobile's Toast, downloaded the first time a message shows: its mask brings the animation
 * library (react-spring) that the first screens do not otherwise need. Toasts come after a
 * reply or a tap, so the wait for the chunk (cached after the first) goes unnoticed.
 */
export function showToast(props: ToastShowProps): void {
  void Promise.all([import('antd-mobile/es/components/toast'), import('./antd-render.ts')]).then(([{ default: Toast }]) => Toast.show(props));
}
