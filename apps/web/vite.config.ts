import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig, transformWithOxc } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

function publicFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? publicFiles(path.join(dir, entry.name), `${prefix}/${entry.name}`) : [`${prefix}/${entry.name}`]))
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
    generateBundle: { order: 'post', async handler(_options, bundle) {
      const publicDir = path.join(here, 'public');
      const shell = publicFiles(publicDir);
      // Translations of the six languages a user does not read are not downloaded ahead: the one
      // in use is kept when the app first loads it (cache first, like every hashed file).
      const assets = Object.values(bundle)
        .filter((file) => file.fileName.startsWith('assets/') && !(file.type === 'chunk' && file.facadeModuleId?.endsWith('.json')))
        .map((file) => `/${file.fileName}`)
        .sort();
      const source = fs.readFileSync(path.join(here, 'sw/service-worker.ts'), 'utf8');
      const { code } = await transformWithOxc(source, 'service-worker.ts', { lang: 'ts' });
      const hash = createHash('sha256').update(code).update(assets.join('\n'));
      for (const file of shell) hash.update(file).update(fs.readFileSync(path.join(publicDir, file)));
      const buildId = hash.digest('hex').slice(0, 16);
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: `const BUILD_ID = ${JSON.stringify(buildId)};\nconst ASSETS = ${JSON.stringify(assets)};\nconst SHELL = ${JSON.stringify(shell)};\n${code}`,
      });
    } },
  };
}

export default defineConfig({
  plugins: [react(), serviceWorker()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/ws': { target: 'ws://localhost:3000', ws: true },
    },
  },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600 },
});
