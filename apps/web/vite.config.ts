import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig, transformWithOxc } from 'vite';
import {
  FIRST_SCREEN_PAGES,
  localeFiles,
  localeParts,
  mergeInto,
} from './src/lib/first-screens.ts';
import { markPureSchemas } from './scripts/pure-schemas.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

function publicFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? publicFiles(path.join(dir, entry.name), `${prefix}/${entry.name}`)
        : [`${prefix}/${entry.name}`],
    )
    .sort();
}

/**
 * Writes dist/sw.js from sw/service-worker.ts with this build's id, its hashed assets and the
 * public shell files. A few lines instead of a plugin: the worker's rules (never /api, /ws or
 * /files; download an update only when the user agrees) are ours to read in one file.
 */
function serviceWorker(): Plugin {
  return {
    name: 'tradewind-service-worker',
    apply: 'build',
    enforce: 'post',
    // Last, so the list holds the files actually written (Vite drops some chunks late, e.g. CSS-only ones).
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const publicDir = path.join(here, 'public');
        const shell = publicFiles(publicDir);
        // Translations of the six languages a user does not read are not downloaded ahead: the one
        // in use is kept when the app first loads it (cache first, like every hashed file).
        const assets = Object.values(bundle)
          .filter(
            (file) =>
              file.fileName.startsWith('assets/') &&
              !(file.type === 'chunk' && file.facadeModuleId?.startsWith(`\0${LOCALE_MODULE}`)),
          )
          .map((file) => `/${file.fileName}`)
          .sort();
        const source = fs.readFileSync(path.join(here, 'sw/service-worker.ts'), 'utf8');
        const { code } = await transformWithOxc(source, 'service-worker.ts', { lang: 'ts' });
        const hash = createHash('sha256').update(code).update(assets.join('\n'));
        for (const file of shell)
          hash.update(file).update(fs.readFileSync(path.join(publicDir, file)));
        const buildId = hash.digest('hex').slice(0, 16);
        this.emitFile({
          type: 'asset',
          fileName: 'sw.js',
          source: `const BUILD_ID = ${JSON.stringify(buildId)};\nconst ASSETS = ${JSON.stringify(assets)};\nconst SHELL = ${JSON.stringify(shell)};\n${code}`,
        });
      },
    },
  };
}

const LOCALE_MODULE = 'virtual:tradewind-locale/';

/**
 * `virtual:tradewind-locale/<lang>` and `virtual:tradewind-locale/<lang>/rest`: one language's
 * messages (the contract's, the app's and each feature's files) merged at build time and split
 * in two (`localeParts()`): what the first screens need, which the app waits for before its
 * first render, and the rest, which the other pages wait for. Only the active language is
 * downloaded.
 */
function localeBundles(): Plugin {
  return {
    name: 'tradewind-locales',
    resolveId(id) {
      return id.startsWith(LOCALE_MODULE) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${LOCALE_MODULE}`)) return undefined;
      const [language = '', part = 'first'] = id.slice(LOCALE_MODULE.length + 1).split('/');
      const files = localeFiles(language);
      if (files.length === 0 || (part !== 'first' && part !== 'rest'))
        throw new Error(`no translations for ${language}/${part}`);
      const catalogue: Record<string, unknown> = {};
      for (const file of files) {
        this.addWatchFile(file);
        mergeInto(catalogue, JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>);
      }
      // JSON.parse of a string literal is quicker for the browser than the same object literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(localeParts(catalogue)[part]))});`;
    },
  };
}

/**
 * Writes `<file>.br` and `<file>.gz` beside each hashed script and style sheet; the server sends
 * the one the browser accepts (`preCompressed` in apps/server/src/app.ts). Done once at build
 * time, at the highest levels, instead of on every request.
 */
function precompress(): Plugin {
  return {
    name: 'tradewind-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? path.join(here, 'dist');
      for (const fileName of Object.keys(bundle)) {
        if (!/^assets\/.*\.(js|css)$/.test(fileName)) continue;
        const source = fs.readFileSync(path.join(outDir, fileName));
        if (source.length < 1024) continue;
        fs.writeFileSync(
          path.join(outDir, `${fileName}.br`),
          zlib.brotliCompressSync(source, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
        );
        fs.writeFileSync(path.join(outDir, `${fileName}.gz`), zlib.gzipSync(source, { level: 9 }));
      }
    },
  };
}

/** Where each name `antd-mobile` exports comes from, read from the package's own index. */
function antdMobileExports(): Map<string, { from: string; imported: string }> {
  const index = createRequire(import.meta.url).resolve('antd-mobile/es/index.js');
  const names = new Map<string, { from: string; imported: string }>();
  for (const [, specifiers, from] of fs
    .readFileSync(index, 'utf8')
    .matchAll(/^export \{ (.+) \} from '\.\/(.+)';$/gm)) {
    for (const specifier of (specifiers as string).split(',')) {
      const [imported, exported = imported] = specifier.trim().split(' as ') as [string, string?];
      names.set(exported, { from: `antd-mobile/es/${from}`, imported });
    }
  }
  return names;
}

/** `import { A, B as C } from 'pkg';` (one statement, maybe over several lines) as one import per name; type-only names go. */
function rewriteNamedImports(
  code: string,
  pkg: string,
  importOf: (name: string, local: string) => string,
): string {
  const statement = new RegExp(`^import \\{([^}]*)\\} from '${pkg}';$`, 'gm');
  return code.replace(statement, (_statement, specifiers: string) =>
    specifiers
      .split(',')
      .map((specifier) => specifier.trim())
      .filter((specifier) => specifier && !specifier.startsWith('type '))
      .map((specifier) => {
        const [name, local = name] = specifier.split(/\s+as\s+/) as [string, string?];
        return importOf(name, local);
      })
      .join(' '),
  );
}

/**
 * Rewrites `import { Button, Form } from 'antd-mobile'` in the app into one import per
 * component (`antd-mobile/es/components/button`, ...), as babel-plugin-import does for antd.
 * The package marks its index as having side effects, so every chunk that imported through it
 * was bundled as depending on components other pages use: both first screens downloaded Toast
 * with its mask and animation library (react-spring). The index's one side effect, the global
 * style sheet, is imported by main.tsx.
 */
function antdMobileDeepImports(): Plugin {
  const names = antdMobileExports();
  return {
    name: 'tradewind-antd-mobile-deep-imports',
    enforce: 'pre',
    transform(code, id) {
      const ours = !id.includes('/node_modules/') && /\.tsx?$/.test(id);
      // Icons too, one module each, in the app and in antd-mobile's own components: through the
      // index every icon looks imported, and firstScreenChunks() would group them all.
      if (
        !(ours || id.includes('/node_modules/antd-mobile/es/')) ||
        !/from 'antd-mobile(-icons)?'/.test(code)
      )
        return undefined;
      code = rewriteNamedImports(
        code,
        'antd-mobile-icons',
        (name, local) => `import ${local} from 'antd-mobile-icons/es/${name}.js';`,
      );
      if (!ours) return code;
      return rewriteNamedImports(code, 'antd-mobile', (name, local) => {
        const source = names.get(name);
        if (!source) throw new Error(`${id}: antd-mobile exports no ${name}`);
        return source.imported === 'default'
          ? `import ${local} from '${source.from}';`
          : `import { ${source.imported} as ${local} } from '${source.from}';`;
      });
    },
  };
}

/** The contract's unused schemas dropped from the build (scripts/pure-schemas.ts). */
function pureContractSchemas(): Plugin {
  const contract = path.resolve(here, '../../packages/contract/src') + path.sep;
  return {
    name: 'tradewind-pure-contract-schemas',
    apply: 'build',
    transform(code, id) {
      if (!id.startsWith(contract) || !code.includes('z.')) return undefined;
      const out = markPureSchemas(code, (source) => this.parse(source));
      return out === code ? undefined : { code: out, map: null };
    },
  };
}

const LAZY_FORM_PART = '\0tradewind-lazy-form-part:';

/**
 * antd-mobile modules that pages download without using them, loaded when first used instead:
 * the Popover behind `Form.Item`'s `help` icon (with floating-ui), which only the new-password
 * fields show and which draws the bare icon until it arrives, and async-validator, which
 * rc-field-form runs only for `rules` (the app validates with the shared zod schemas instead; a
 * rule would still work): about 13 KB gzipped off every page with a form. And the default
 * texts of its ConfigProvider are the English ones, which the app ships anyway (ui/antd-locale.tsx
 * always sets the language's), not the Chinese ones (1.3 KB on every first screen).
 */
function antdMobileOnDemand(): Plugin {
  const stubs: Record<string, string> = {
    popover: `import { createElement, lazy, Suspense } from 'react';
const Real = lazy(() => import('antd-mobile/es/components/popover'));
export default function Popover(props) {
  return createElement(Suspense, { fallback: props.children }, createElement(Real, props));
}`,
    'async-validator': `export default class AsyncValidator {
  constructor(descriptor) { this.descriptor = descriptor; }
  messages(messages) { this.validateMessages = messages; }
  async validate(source, options) {
    const { default: Real } = await import('async-validator');
    if (AsyncValidator.warning) Real.warning = AsyncValidator.warning;
    const validator = new Real(this.descriptor);
    if (this.validateMessages) validator.messages(this.validateMessages);
    return validator.validate(source, options);
  }
}`,
  };
  return {
    name: 'tradewind-antd-mobile-on-demand',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const from = importer?.replace(/\\/g, '/') ?? '';
      if (
        source === '../../locales/zh-CN' &&
        from.endsWith('/antd-mobile/es/components/config-provider/config-provider.js')
      )
        return this.resolve('antd-mobile/es/locales/en-US', importer);
      if (source === '../popover' && from.endsWith('/antd-mobile/es/components/form/form-item.js'))
        return `${LAZY_FORM_PART}popover`;
      if (source === 'async-validator' && from.endsWith('/rc-field-form/es/utils/validateUtil.js'))
        return `${LAZY_FORM_PART}async-validator`;
      return undefined;
    },
    load(id) {
      return id.startsWith(LAZY_FORM_PART) ? stubs[id.slice(LAZY_FORM_PART.length)] : undefined;
    },
  };
}

/**
 * The first screens' code in four files instead of about seventy: what the app's entry imports
 * (`$initial`), what both `/Login` and `/` import beyond that, and what each imports alone. A
 * browser fetches them side by side anyway, and small files compress badly one by one: the same
 * code of `/` was 160.5 KB gzipped in 78 files and 148 KB as one. A page opened later that
 * shares a module with a first screen downloads that screen's file (the service worker keeps
 * every file after the first visit in any case). The plugin records the import graph as modules
 * are parsed, which is complete before the chunks are made.
 */
function firstScreenChunks() {
  const imports = new Map<string, readonly string[]>();
  const reachable = new Map<string, Set<string>>();
  const reach = (page: keyof typeof FIRST_SCREEN_PAGES): Set<string> => {
    let seen = reachable.get(page);
    if (!seen) {
      seen = new Set();
      const queue = FIRST_SCREEN_PAGES[page].map((file) => path.join(here, file));
      // A page renamed without this list: fail, rather than quietly group nothing.
      for (const root of queue)
        if (!imports.has(root)) throw new Error(`first screen ${root} is not in the build`);
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        if (seen.has(id)) continue;
        seen.add(id);
        queue.push(...(imports.get(id) ?? []));
      }
      reachable.set(page, seen);
    }
    return seen;
  };
  const plugin: Plugin = {
    name: 'tradewind-first-screen-chunks',
    apply: 'build',
    moduleParsed(info) {
      imports.set(info.id, info.importedIds);
    },
  };
  const groups = [
    { name: 'app', tags: ['$initial' as const], priority: 4 },
    {
      name: 'first-shared',
      test: (id: string) => reach('home').has(id) && reach('login').has(id),
      priority: 3,
    },
    { name: 'home', test: (id: string) => reach('home').has(id), priority: 2 },
    { name: 'login', test: (id: string) => reach('login').has(id), priority: 1 },
  ];
  return { plugin, groups };
}

const firstScreens = firstScreenChunks();

/**
 * Two builds (`npm run build`): the app into dist/, with a manifest of which files each module
 * needs; then (`--ssr src/prerender.tsx`) the same code for Node into build-ssr/, everything
 * bundled (antd-mobile's modules import style sheets, which Node cannot), which
 * scripts/prerender.ts runs to write the sign-in page's HTML in every language.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild
    ? [antdMobileDeepImports(), antdMobileOnDemand(), react(), localeBundles()]
    : [
        antdMobileDeepImports(),
        antdMobileOnDemand(),
        firstScreens.plugin,
        pureContractSchemas(),
        react(),
        localeBundles(),
        serviceWorker(),
        precompress(),
      ],
  resolve: {
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
  },
  ssr: { noExternal: true },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/ws': { target: 'ws://localhost:3000', ws: true },
    },
  },
  build: isSsrBuild
    ? {
        target: 'node20',
        outDir: 'build-ssr',
        emptyOutDir: true,
        sourcemap: false,
        copyPublicDir: false,
      }
    : {
        target: 'es2022',
        // TW_SOURCEMAP=1 npm run build: with source maps, to read a profile of the built app by source file.
        sourcemap: process.env.TW_SOURCEMAP === '1',
        chunkSizeWarningLimit: 600,
        manifest: true,
        rolldownOptions: { output: { codeSplitting: { groups: firstScreens.groups } } },
      },
}));
