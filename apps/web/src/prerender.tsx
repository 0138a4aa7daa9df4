// The app rendered to HTML outside the browser, bundled for Node by the build's second pass
// (vite.config.ts) into build-ssr/prerender.js:
// - scripts/prerender.ts renders the sign-in page in every language at build time;
// - the server (apps/server/src/platform/web-app.ts) renders `/` per language as requests come,
//   with the replies of Home's public GETs (news, quotes, configuration).
// The server sends the HTML in place of the empty shell, so the browser paints the page before
// the app's code is there; main.tsx then hydrates it.
import './prerender-globals.ts';
import type { Language } from '@tradewind/contract/languages';
import type { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { type AnsweredQuery, App, createQueryClient } from './app/app.tsx';
import { HOME_PUBLIC_QUERIES } from './features/home/home-public.ts';
import { initI18n } from './lib/i18n.ts';
import { loadAntdLocale } from './ui/antd-locale.tsx';

/** The URLs the server fetches (in the page's language) to render `/` with. */
export const HOME_PUBLIC_REQUESTS: readonly string[] = HOME_PUBLIC_QUERIES.map(
  (query) => query.url,
);

let rendering: Promise<unknown> = Promise.resolve();

/** One render at a time: the language (i18next's and antd-mobile's) is global to the module. */
function exclusive<T>(work: () => Promise<T>): Promise<T> {
  const result = rendering.then(work);
  rendering = result.catch(() => undefined);
  return result;
}

/** A page as HTML: what goes in #root, and the preloads React derives (the page's images) for the head. */
export interface RenderedPage {
  head: string;
  markup: string;
}

async function render(
  pathname: string,
  language: Language,
  client?: QueryClient,
): Promise<RenderedPage> {
  await Promise.all([initI18n(language), loadAntdLocale(language)]);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <App location={pathname} client={client} signedIn={client !== undefined} />
    </StrictMode>,
    // Every boundary in place: a large one would otherwise come after the page with an inline
    // script to move it, which the content security policy does not run (nor would hydration want it).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  const rendered = Buffer.concat(chunks).toString('utf8');
  // React puts its preloads before the markup; in a document they belong in the head, and in
  // #root they would not match what the app hydrates.
  const head = /^(?:<link [^>]*\/>)*/.exec(rendered)?.[0] ?? '';
  return { head, markup: rendered.slice(head.length) };
}

/** `pathname` in `language` as a visitor without a session sees it, with every lazy page of it resolved. */
export function renderPage(pathname: string, language: Language): Promise<RenderedPage> {
  return exclusive(() => render(pathname, language));
}

export interface RenderedHome extends RenderedPage {
  /** The queries answered, for the page's `#tw-state`. */
  queries: AnsweredQuery[];
}

/**
 * Home as a signed-in visitor sees it before their own data arrives: news, notices and quotes
 * from `replies` (each GET's `data`, by URL; a missing or malformed one stays a placeholder),
 * their total, positions and check-in as placeholders.
 */
export function renderHome(
  language: Language,
  replies: Readonly<Record<string, unknown>>,
  now = Date.now(),
): Promise<RenderedHome> {
  return exclusive(async () => {
    const client = createQueryClient();
    const queries: AnsweredQuery[] = [];
    for (const query of HOME_PUBLIC_QUERIES) {
      const parsed = query.schema.safeParse(replies[query.url]);
      if (!parsed.success) continue;
      const key = query.key(language);
      client.setQueryData(key, parsed.data, { updatedAt: now });
      queries.push({ url: query.url, key, data: parsed.data, updatedAt: now });
    }
    return { ...(await render('/', language, client)), queries };
  });
}
