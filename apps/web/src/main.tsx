// antd-mobile's variables and base styles, first: the app imports its components one by one
// (antdMobileDeepImports() in vite.config.ts), not through the index that brings this sheet.
import 'antd-mobile/es/global';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadRoute } from './app/router.tsx';
import { initI18n } from './lib/i18n.ts';
import { onAppStart, storedLanguage } from './lib/storage.ts';
import { loadAntdLocale } from './ui/antd-locale.tsx';
import { makeWidgetsKeyboardOperable } from './ui/keyboard-activation.ts';
import './app/styles.css';

onAppStart();
makeWidgetsKeyboardOperable(document.body);
// The page's code, its language's messages and antd-mobile's texts download side by side.
preloadRoute(window.location.pathname);
// Not a top-level await: the entry's chunk must finish evaluating, because the language files
// import from it (antd-mobile's texts share its base with the English ones the entry holds).
void Promise.all([initI18n(), loadAntdLocale(storedLanguage()).catch(() => undefined)]).then(() => {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
