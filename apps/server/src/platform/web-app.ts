import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ERROR_CODES } from '@tradewind/contract/errors';
import { LANGUAGE_COOKIE, SIGNED_IN_COOKIE, isLanguage } from '@tradewind/contract/languages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config.ts';
import { translate } from './i18n.ts';
import { type RenderedPage, renderedHome } from './rendered-home.ts';

/** The path as the web app's router matches it: without a trailing slash, in any case. */
const routeKey = (url: string) => (url.length > 1 ? url.replace(/\/+$/, '') : url).toLowerCase();

/**
 * The pages the build prerendered (apps/web/scripts/prerender.ts writes
 * `dist/prerendered/<Page>.<lang>.html`), by route and language: `/login` → `en` → file.
 */
function prerenderedPages(webDist: string): Map<string, Map<string, string>> {
  const pages = new Map<string, Map<string, string>>();
  const dir = path.join(webDist, 'prerendered');
  if (!fs.existsSync(dir)) return pages;
  for (const name of fs.readdirSync(dir)) {
    const match = /^(\w+)\.(\w+)\.html$/.exec(name);
    if (!match || !isLanguage(match[2])) continue;
    const route = `/${(match[1] as string).toLowerCase()}`;
    const byLanguage = pages.get(route) ?? new Map<string, string>();
    byLanguage.set(match[2], path.join('prerendered', name));
    pages.set(route, byLanguage);
  }
  return pages;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The rendered page in the best encoding the request accepts. */
function sendRendered(reply: FastifyReply, page: RenderedPage, acceptEncoding: string | undefined) {
  reply
    .header('cache-control', 'no-cache')
    .header('vary', 'Cookie, Accept-Encoding')
    .type('text/html; charset=utf-8');
  // Each coding named, unless with q=0 (refused).
  const accepted = (acceptEncoding ?? '').split(',').flatMap((part) => {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim());
    return params.some((param) => /^q=0(\.0*)?$/.test(param)) ? [] : [coding];
  });
  if (accepted.includes('br')) return reply.header('content-encoding', 'br').send(page.br);
  if (accepted.includes('gzip')) return reply.header('content-encoding', 'gzip').send(page.gzip);
  return reply.send(page.html);
}

/**
 * Serves the built client at / and the operator console at /admin; any other non-API path gets
 * the matching index.html so that app's router decides. A path the build prerendered (the
 * sign-in page) gets its HTML in the language of the `lang` cookie (English without one), with
 * the page already in it: painted before the app's code arrives, then hydrated by the app.
 * `/` with the `signed_in` cookie gets Home rendered with its public parts (rendered-home.ts).
 */
export function registerWebApp(app: FastifyInstance, config: Config): void {
  const hasWebApp = fs.existsSync(path.join(config.webDist, 'index.html'));
  const hasAdminApp = fs.existsSync(path.join(config.adminDist, 'index.html'));
  const prerendered = hasWebApp
    ? prerenderedPages(config.webDist)
    : new Map<string, Map<string, string>>();
  const home = hasWebApp ? renderedHome(app, config.webDist) : null;
  const cacheHeaders = (
    res: { setHeader: (name: string, value: string) => void },
    filePath: string,
  ) => {
    const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
    res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  };
  if (hasWebApp) {
    app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      index: 'index.html',
      cacheControl: false,
      // The build writes .br and .gz beside each script and style sheet (apps/web/vite.config.ts).
      preCompressed: true,
      setHeaders(res, filePath) {
        cacheHeaders(res, filePath);
        // The service worker is revalidated on every check, so a deploy reaches users on their next visit;
        // it sits at the root and controls the whole app.
        if (filePath === path.join(config.webDist, 'sw.js'))
          res.setHeader('service-worker-allowed', '/');
      },
    });
  }
  if (hasAdminApp) {
    app.register(fastifyStatic, {
      root: config.adminDist,
      prefix: '/admin/',
      decorateReply: false,
      wildcard: true,
      index: 'index.html',
      cacheControl: false,
      setHeaders: cacheHeaders,
    });
  }
  /** A page of the client: rendered, prerendered or the plain index.html, by path and cookies. */
  async function sendPage(request: FastifyRequest, reply: FastifyReply, url: string) {
    const cookies = request.headers.cookie;
    const language = cookieValue(cookies, LANGUAGE_COOKIE);
    if (home && routeKey(url) === '/' && cookieValue(cookies, SIGNED_IN_COOKIE) === '1') {
      try {
        return sendRendered(
          reply,
          await home(isLanguage(language) ? language : 'en'),
          request.headers['accept-encoding'],
        );
      } catch (error) {
        request.log.warn({ err: error }, 'Home could not be rendered: sent the plain page');
      }
    }
    const byLanguage = prerendered.get(routeKey(url));
    if (byLanguage) {
      const file = byLanguage.get(language ?? 'en') ?? byLanguage.get('en');
      if (file)
        return reply
          .header('cache-control', 'no-cache')
          .header('vary', 'Cookie')
          .type('text/html')
          .sendFile(file);
    }
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
  }
  // Before the static files' index.html: `/` may be rendered.
  if (hasWebApp)
    app.get('/', { schema: { hide: true } }, (request, reply) => sendPage(request, reply, '/'));
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = url.startsWith('/api/') || url === '/api' || url.startsWith('/ws');
    const isAdmin = url === '/admin' || url.startsWith('/admin/');
    // A navigation (the browser asks for HTML) always gets a page, even for a path that looks like
    // a file: a JSON envelope in the address bar is a broken screen, not an error message. Any
    // other request for an unknown path (a probe, a script, a mistyped /healthz) gets a 404: the
    // app's HTML with a 200 would pass a health check that checks nothing.
    const navigation =
      request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (!isApi && navigation) {
      if (isAdmin && hasAdminApp) {
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html')
          .send(fs.createReadStream(path.join(config.adminDist, 'index.html')));
      }
      if (!isAdmin && hasWebApp) return sendPage(request, reply, url);
    }
    return reply.status(404).send({
      code: ERROR_CODES.NOT_FOUND,
      message: translate(request.lang, 'errors.NOT_FOUND'),
      data: null,
    });
  });
}
