// antd-mobile's variables and base styles, first: the app imports its components one by one
// (antdMobileDeepImports() in vite.config.ts), not through the index that brings this sheet.
import 'antd-mobile/es/global';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadRoute } from './app/router.tsx';
import { initI18n } from './lib/i18n.ts';
import { normalizePath } from './lib/router.tsx';
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
const language = storedLanguage();
void Promise.all([initI18n(language), loadAntdLocale(language).catch(() => undefined)]).then(() => {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // The server sends the sign-in page prerendered in the language of the `lang` cookie
  // (scripts/prerender.ts): the app takes it over where it is, if it is that page in the stored
  // language; otherwise it renders anew, and the first commit replaces it.
  if (container.dataset.prerendered === `${language} ${normalizePath(window.location.pathname)}`) hydrateRoot(container, app);
  else createRoot(container).render(app);
});
