import Dialog, { type DialogConfirmProps } from 'antd-mobile/es/components/dialog';
import './antd-render.ts';

/** antd-mobile's `Dialog.confirm`, through here so that its renderer is set (antd-render.ts). */
export function confirm(props: DialogConfirmProps): Promise<boolean> {
  return Dialog.confirm(props);
}
