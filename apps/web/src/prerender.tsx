// The build's prerender (scripts/prerender.ts runs this module after an SSR build of it): a page
// rendered to HTML in one language, as the app renders it before any data arrives. The server
// sends it in place of the empty shell, so the browser paints the page before the app's code is
// there; main.tsx then hydrates it.
import './prerender-globals.ts';
import type { Language } from '@tradewind/contract/languages';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { App } from './app/app.tsx';
import { initI18n } from './lib/i18n.ts';
import { loadAntdLocale } from './ui/antd-locale.tsx';

/** The markup of `pathname` in `language`, with every lazy page of it resolved. */
export async function renderPage(pathname: string, language: Language): Promise<string> {
  await Promise.all([initI18n(language), loadAntdLocale(language)]);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <App location={pathname} />
    </StrictMode>,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
