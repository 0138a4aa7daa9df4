// Writes the sign-in page's HTML in every language, after the two builds of `npm run build`
// (vite.config.ts): dist/index.html with the page rendered into #root by build-ssr/prerender.js,
// the page's style sheets linked, and a boot script that fetches the app's scripts for it side
// by side once the page is painted (see bootScript()). The server
// sends dist/prerendered/<Page>.<lang>.html for that path, by the `lang` cookie
// (apps/server/src/platform/web-app.ts); main.tsx hydrates it. For Home, which the server
// renders per request with build-ssr/prerender.js, it writes the same document with marks where
// the server puts the page: dist/at-request/Home.<lang>.html.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { LANGUAGES, LANGUAGE_TAGS, type Language } from '@tradewind/contract/languages';

/** The prerendered pages: the route, and the chunk its code is grouped in (firstScreenChunks() in vite.config.ts). */
const PRERENDERED_PAGES = [{ route: '/Login', chunk: 'login' }] as const;
/** The pages the server renders per request (Home: its news and quotes change), as templates `at-request/<name>.<lang>.html`. */
const AT_REQUEST_PAGES = [{ route: '/', chunk: 'home', name: 'Home' }] as const;
/** Where the server puts what it rendered in a template (apps/server/src/platform/rendered-home.ts uses the same marks). */
const AT_REQUEST_MARKS = {
  head: '<!--tw-head-->',
  root: '<!--tw-page-->',
  state: '<!--tw-state-->',
} as const;

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const manifest = JSON.parse(
  fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'),
) as Record<string, ManifestChunk>;
const { renderPage } = (await import(
  pathToFileURL(path.join(web, 'build-ssr/prerender.js')).href
)) as {
  renderPage: (pathname: string, language: Language) => Promise<{ head: string; markup: string }>;
};
const template = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');

function entryOf(
  find: (key: string, chunk: ManifestChunk) => boolean,
  what: string,
): [string, ManifestChunk] {
  const found = Object.entries(manifest).find(([key, chunk]) => find(key, chunk));
  if (!found) throw new Error(`prerender: no ${what} in the build's manifest`);
  return found;
}

/**
 * The scripts and style sheets a chunk needs beyond what index.html loads already (the entry
 * and its runtime), its imports' first, in the order Vite would add them.
 */
function filesOf(key: string, scripts: Set<string>, styles: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk || chunk.isEntry || scripts.has(chunk.file) || template.includes(`/${chunk.file}"`))
    return;
  scripts.add(chunk.file);
  for (const imported of chunk.imports ?? []) filesOf(imported, scripts, styles);
  for (const css of chunk.css ?? []) styles.add(css);
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * The page paints from the HTML and its style sheets; the scripts make it work. So the entry's
 * script tag (and the preloads Vite puts beside it) give way to a small boot script that, once
 * the browser reports the page's first paint, preloads the app's scripts side by side (the
 * entry, the page's chunks, the language's messages) and starts the app. On a slow link the
 * style sheets and the paint then do not share the bandwidth with 110 KB of scripts, and on a
 * slow phone the app's code (340 KB before compression) runs after the page is shown instead of
 * before it. The cost: the scripts start downloading after the paint, not with the style sheets.
 * A hidden tab (which does not paint) starts at once, and any tab after a second at the latest.
 * An external file: the content security policy allows no inline script.
 */
function bootScript(entry: string, scripts: string[]): string {
  return `const scripts = ${JSON.stringify(scripts)};
let started = false;
const start = () => {
  if (started) return;
  started = true;
  for (const href of scripts) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  void import(${JSON.stringify(entry)});
};
// A submit of one of the page's forms before the app has taken it over (it marks the form
// data-ready) would reload the page: it is held, and the app makes it again (ui/light-form.tsx).
const forms = new Set(document.querySelectorAll('#root form'));
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!forms.has(form) || 'ready' in form.dataset) return;
  event.preventDefault();
  form.dataset.pendingSubmit = '';
}, true);
if (document.visibilityState !== 'visible' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) start();
else {
  new PerformanceObserver((list) => list.getEntriesByName('first-contentful-paint').length && start()).observe({ type: 'paint', buffered: true });
  setTimeout(start, 1000);
}
`;
}

const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>\n?\s*/.exec(template);
if (!entryTag?.[1]) throw new Error('prerender: dist/index.html has no entry script');
const entry = entryTag[1];
const templatePreloads = [
  ...template.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\n?\s*/g),
];
/** index.html without its scripts: the boot script loads them. */
const shell = [entryTag[0], ...templatePreloads.map((m) => m[0])].reduce(
  (html, tag) => html.replace(tag, ''),
  template,
);

/** The boot script and style sheets of `chunk`'s page in `language`, for the document's head. */
function pageHead(chunk: string, language: Language): string[] {
  const [pageKey] = entryOf((_key, c) => c.name === chunk && !c.src, `chunk "${chunk}"`);
  const scripts = new Set<string>();
  const styles = new Set<string>();
  filesOf(pageKey, scripts, styles);
  // The first part of the language's messages, and antd-mobile's texts in it (English ones are in the entry).
  scripts.add(
    entryOf((key) => key === `virtual:tradewind-locale/${language}`, `messages for ${language}`)[1]
      .file,
  );
  if (language !== 'en') {
    const antd = new RegExp(`/antd-mobile/es/locales/${LANGUAGE_TAGS[language]}(-[A-Z]+)?\\.js$`);
    scripts.add(entryOf((key) => antd.test(key), `antd-mobile texts for ${language}`)[1].file);
  }
  const boot = bootScript(entry, [
    entry,
    ...templatePreloads.map((m) => m[1] as string),
    ...[...scripts].map((file) => `/${file}`),
  ]);
  const bootFile = `assets/boot-${createHash('sha256').update(boot).digest('hex').slice(0, 8)}.js`;
  fs.writeFileSync(path.join(dist, bootFile), boot);
  return [
    `<script type="module" src="/${bootFile}"></script>`,
    ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${escape(file)}">`),
  ];
}

/** index.html in `language` with `head` added and `root` in #root, marked as `route`'s page for main.tsx. */
function pageDocument(route: string, language: Language, head: string[], root: string): string {
  const marker = `${language} ${route.toLowerCase()}`;
  // Replacement functions: the texts may hold `$`, which a replacement string would interpret.
  const html = shell
    .replace(/<html lang="[^"]*">/, () => `<html lang="${LANGUAGE_TAGS[language]}">`)
    .replace('</head>', () => `  ${head.join('\n    ')}\n  </head>`)
    .replace(
      '<div id="root"></div>',
      () => `<div id="root" data-prerendered="${escape(marker)}">${root}</div>`,
    );
  if (!html.includes(root) || !html.includes(`lang="${LANGUAGE_TAGS[language]}"`))
    throw new Error('prerender: dist/index.html is not the expected shell');
  return html;
}

/** `html` at `file`, with the compressed copies the server sends by Accept-Encoding, like the scripts' (precompress() in vite.config.ts). */
function writePage(file: string, html: string): void {
  fs.writeFileSync(file, html);
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(html, { level: 9 }));
}

for (const dir of ['prerendered', 'at-request']) {
  fs.rmSync(path.join(dist, dir), { recursive: true, force: true });
  fs.mkdirSync(path.join(dist, dir));
}
for (const language of LANGUAGES) {
  for (const { route, chunk } of PRERENDERED_PAGES) {
    const page = await renderPage(route, language);
    const head = [...pageHead(chunk, language), ...(page.head ? [page.head] : [])];
    writePage(
      path.join(dist, 'prerendered', `${route.slice(1)}.${language}.html`),
      pageDocument(route, language, head, page.markup),
    );
  }
  // The pages the server renders per request: the document around the page, with a place for
  // React's preloads, the markup and the replies it was rendered with (platform/rendered-home.ts).
  for (const { route, chunk, name } of AT_REQUEST_PAGES) {
    const html = pageDocument(
      route,
      language,
      [...pageHead(chunk, language), AT_REQUEST_MARKS.head],
      AT_REQUEST_MARKS.root,
    ).replace(
      `${AT_REQUEST_MARKS.root}</div>`,
      () => `${AT_REQUEST_MARKS.root}</div>${AT_REQUEST_MARKS.state}`,
    );
    fs.writeFileSync(path.join(dist, 'at-request', `${name}.${language}.html`), html);
  }
}
console.log(
  `prerendered ${PRERENDERED_PAGES.map((p) => p.route).join(', ')} in ${LANGUAGES.length} languages; templates for ${AT_REQUEST_PAGES.map((p) => p.route).join(', ')}`,
);
