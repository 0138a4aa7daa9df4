import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { LANGUAGES, type Language } from '@tradewind/contract/languages';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Where a template of dist/at-request/ takes the rendered page (apps/web/scripts/prerender.ts writes them). */
const MARKS = { head: '<!--tw-head-->', root: '<!--tw-page-->', state: '<!--tw-state-->' } as const;

/**
 * How long one render of Home serves every request in its language. Its prices are at most this
 * old when sent; the page's socket brings the next ones.
 */
export const HOME_RENDER_TTL_MS = 2_000;

/** What the build's server renderer offers (apps/web/src/prerender.tsx, bundled into apps/web/build-ssr/prerender.js). */
interface PageRenderer {
  HOME_PUBLIC_REQUESTS: readonly string[];
  renderHome(
    language: Language,
    replies: Record<string, unknown>,
    now?: number,
  ): Promise<{ head: string; markup: string; queries: unknown[] }>;
}

/** A rendered page with its compressed copies, made once per render. */
export interface RenderedPage {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The header with which the render's own GETs go in-process, with a value made at start that
 * nobody outside knows: the per-address rate limit does not count them (app.ts). Busy in all
 * seven languages, the renders alone would make about a thousand a minute from 127.0.0.1.
 */
const RENDER_HEADER = 'x-tradewind-render';
const renderToken = randomBytes(16).toString('hex');

/** Whether `request` is one of Home's render's own GETs. */
export const isRenderRequest = (request: FastifyRequest): boolean =>
  request.headers[RENDER_HEADER] === renderToken;

/** JSON inside a `<script type="application/json">`: no `<` can end the element or open a comment in it. */
const jsonInHtml = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * Home (`/`) rendered by the server in a language, with the replies of its public GETs (news,
 * notices, quotes, configuration) answered by this server in-process, exactly as the browser
 * would get them: the page is painted with them before the app's code arrives, and the replies
 * go along in `#tw-state` so the app starts with them (apps/web/src/main.tsx). Nothing private
 * is in it: the server does not know the visitor (the session lives in local storage); their
 * total, positions and check-in are placeholders until the app asks.
 *
 * Null without a build that has the templates and the renderer. One render per language serves
 * `HOME_RENDER_TTL_MS`; requests during a render share it; a failed render is not kept.
 */
export function renderedHome(
  app: FastifyInstance,
  webDist: string,
  now: () => number = Date.now,
): ((language: Language) => Promise<RenderedPage>) | null {
  const rendererFile = path.join(webDist, '..', 'build-ssr', 'prerender.js');
  const templates = new Map<Language, string>();
  for (const language of LANGUAGES) {
    const file = path.join(webDist, 'at-request', `Home.${language}.html`);
    if (fs.existsSync(file)) templates.set(language, fs.readFileSync(file, 'utf8'));
  }
  if (!templates.has('en') || !fs.existsSync(rendererFile)) return null;
  let renderer: Promise<PageRenderer> | undefined;
  const cache = new Map<Language, { at: number; page: Promise<RenderedPage> }>();

  async function render(language: Language, at: number): Promise<RenderedPage> {
    renderer ??= import(pathToFileURL(rendererFile).href) as Promise<PageRenderer>;
    const { HOME_PUBLIC_REQUESTS, renderHome } = await renderer;
    const answers = await Promise.all(
      HOME_PUBLIC_REQUESTS.map(async (url) => {
        const reply = await app.inject({
          method: 'GET',
          url,
          headers: {
            accept: 'application/json',
            'accept-language': language,
            [RENDER_HEADER]: renderToken,
          },
        });
        const envelope = reply.json<{ code?: unknown; data?: unknown }>();
        return reply.statusCode === 200 && envelope.code === 0
          ? [[url, envelope.data] as const]
          : [];
      }),
    );
    const replies = Object.fromEntries(answers.flat());
    const page = await renderHome(language, replies, at);
    const template = templates.get(language) ?? (templates.get('en') as string);
    // Replacement functions: the texts may hold `$`, which a replacement string would interpret.
    const html = template
      .replace(MARKS.head, () => page.head)
      .replace(MARKS.root, () => page.markup)
      .replace(
        MARKS.state,
        () =>
          `<script type="application/json" id="tw-state">${jsonInHtml({ queries: page.queries })}</script>`,
      );
    return {
      html,
      br: zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
      gzip: zlib.gzipSync(html, { level: 6 }),
    };
  }

  return (language) => {
    const at = now();
    const cached = cache.get(language);
    if (cached && at - cached.at < HOME_RENDER_TTL_MS) return cached.page;
    const page = render(language, at);
    cache.set(language, { at, page });
    page.catch(() => {
      if (cache.get(language)?.page === page) cache.delete(language);
    });
    return page;
  };
}
