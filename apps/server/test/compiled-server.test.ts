// The production build (issue 30: "the server runs TypeScript through tsx at run time"):
// `npm run build -w @tradewind/server` compiles the server and its CLIs to apps/server/dist,
// and `node apps/server/dist/main.js` runs with no TypeScript loader, on its own migrations.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, demoToken, root } from './server-process.ts';

const dist = path.join(root, 'apps/server/dist');

/** Runs `node <args>` in the checkout with no loader: a .ts file anywhere on its way would fail to load. */
function run(args: string[], env: NodeJS.ProcessEnv) {
  const { NODE_OPTIONS: _loaders, ...clean } = process.env;
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('the compiled server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-compiled-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it(
    'builds to dist, serves /api/health and the API from `node dist/main.js` on a fresh DATA_DIR, and its migrate CLI finds the same migrations',
    { timeout: 120_000 },
    async () => {
      const built = run(['--import', 'tsx', 'apps/server/scripts/build.ts'], {});
      expect(await built.exited, built.output()).toBe(0);
      for (const file of ['main.js', 'migrate.js', 'ops.js', 'check-ledger.js'])
        expect(fs.existsSync(path.join(dist, file)), file).toBe(true);

      const env = {
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        WEB_DIST: '/nonexistent',
        LOG_LEVEL: 'info',
        DRAIN_MS: '0',
      };
      const server = run(['apps/server/dist/main.js'], env);
      const deadline = Date.now() + 90_000;
      let baseUrl: string | undefined;
      while (!baseUrl && Date.now() < deadline && server.child.exitCode === null) {
        baseUrl = server.output().match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
        if (!baseUrl) await new Promise((r) => setTimeout(r, 100));
      }
      try {
        expect(baseUrl, server.output()).toBeDefined();
        const health = await api<{ status: string; database: string }>(
          baseUrl as string,
          'GET',
          '/api/health',
        );
        expect(health).toMatchObject({ status: 'ok', role: 'all' });
        // The shared messages are found from the bundle: the reply speaks German when asked.
        const config = await fetch(`${baseUrl}/api/v1/config`, {
          headers: { 'accept-language': 'de' },
        });
        expect(await config.json()).toMatchObject({ code: 0, message: 'Vorgang erfolgreich' });
        // The migrated, seeded database, the password hash's native module, a signed-in route.
        const token = await demoToken(baseUrl as string);
        const balances = await api<{ spot: { asset: string; available: string }[] }>(
          baseUrl as string,
          'GET',
          '/api/v1/wallet/balances',
          { token },
        );
        expect(balances.spot.find((b) => b.asset === 'USDT')?.available).toBe('10000');
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exited, server.output()).toBe(0);

      // Reads the journal from the bundle too: a wrong folder would fail to find it.
      const migrate = run(['apps/server/dist/migrate.js'], { DATA_DIR: dataDir });
      expect(await migrate.exited, migrate.output()).toBe(0);
      expect(migrate.output()).toContain('is up to date: nothing to apply');
    },
  );
});
