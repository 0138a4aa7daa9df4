// `npm run build -w @tradewind/server`: compiles the server and its command-line tools to
// JavaScript in apps/server/dist, so production runs `node apps/server/dist/main.js` with no
// TypeScript compiler loaded (docs/operations.md#production-build).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, build } from 'esbuild';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(serverDir, 'dist');

/** What is compiled: the server and every CLI, each one file in dist/ (`dist/migrate.js`, …). */
const ENTRIES = {
  main: 'src/main.ts',
  migrate: 'src/cli/migrate.ts',
  ops: 'src/cli/ops.ts',
  'check-ledger': 'src/cli/check-ledger.ts',
  'storage-migrate': 'src/cli/storage-migrate.ts',
  chain: 'src/cli/chain.ts',
};

/**
 * Packages stay in node_modules and are loaded from there at run time: their native parts
 * (sharp, argon2), PGlite's wasm and data files and the lazily loaded AWS SDK work as
 * installed. Only our own TypeScript is bundled: the server's sources, its `#platform/*`
 * imports and the workspace's @tradewind/* packages, which export .ts files Node cannot load.
 */
const packagesExternal: Plugin = {
  name: 'packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@tradewind/') || args.path.startsWith('#')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/**
 * A few modules find files beside their source (`drizzle/` from platform/db.ts, the shared
 * messages from platform/i18n.ts) through `import.meta.url`. In one bundle that would be the
 * bundle's address; each module gets its own source file's address back instead, relative
 * to the bundle, so the compiled server reads the same folders of the checkout.
 */
const sourceImportMeta: Plugin = {
  name: 'source-import-meta',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = fs.readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(relative)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: serverDir,
  entryPoints: ENTRIES,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Stack traces name the TypeScript sources with NODE_OPTIONS=--enable-source-maps.
  sourcemap: 'linked',
  plugins: [packagesExternal, sourceImportMeta],
  metafile: true,
  logLevel: 'warning',
});
const sizes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .map(([file, output]) => `${path.basename(file)} ${(output.bytes / 1024).toFixed(0)} KiB`);
console.log(
  `server compiled to ${path.relative(process.cwd(), outdir) || '.'}: ${sizes.join(', ')}`,
);
