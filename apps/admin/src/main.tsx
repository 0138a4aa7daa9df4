import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@admin/app/App';
import { getLanguage } from '@admin/lib/i18n';

document.documentElement.lang = getLanguage();
const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
