import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot } from 'react-dom/client';

/**
 * antd-mobile's imperative Toast and Dialog render outside the tree; React 19 needs createRoot
 * for that. Imported by the only modules that open them (toast.ts, confirm.ts) rather than by
 * main.tsx: the setter's module carries antd-mobile's own fallback renderer (rc-util with
 * Babel's regenerator), which no first screen needs.
 */
unstableSetRender((node, container) => {
  const root = createRoot(container);
  root.render(node);
  return async () => root.unmount();
});
