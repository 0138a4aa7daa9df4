import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const web = fileURLToPath(new URL('./apps/web/src', import.meta.url));
const server = fileURLToPath(new URL('./apps/server/src', import.meta.url));

/** CI_REPORT=name also writes artifacts/reports/<name>.json, which .ci/run sums into one closing line. */
const report = process.env.CI_REPORT;

/**
 * Test files run two at a time: one worker keeps one of the two cores busy (a server test
 * file's own thread runs the app, and on PGlite its database too; on PostgreSQL the database
 * backend does little beside it). Each file has its own database (a PGlite
 * copy, or a PostgreSQL clone of one template: concurrent clones work). Browser test files
 * each get the server of their worker (apps/web/e2e/global-setup.ts starts one per worker).
 */
const workers = 2;

/**
 * The server's test files share their worker's modules (`isolate: false`): each file builds
 * its own app and database, and loading the server's modules once per worker rather than once
 * per file roughly halves the suite's time (docs/testing.md). Files that mock a module
 * (`vi.mock`) need modules of their own and run in a project of their own.
 */
const SERVER_ISOLATED = ['apps/server/test/money-password-recent.test.ts'];

function serverProject(
  name: string,
  files: { isolate: boolean; include?: string[]; exclude?: string[] },
) {
  return {
    resolve: { alias: [{ find: /^#platform\/(.*)$/, replacement: `${server}/platform/$1` }] },
    test: {
      name,
      include: files.include ?? ['apps/server/test/**/*.test.ts'],
      exclude: files.exclude ?? [],
      isolate: files.isolate,
      environment: 'node' as const,
      globalSetup: ['apps/server/test/global-setup.ts'],
      // Servers the tests start (in process or spawned) write no market history in the
      // background; market-history.test.ts and market-source-history.test.ts test it.
      env: { DEMO_HISTORY_DAYS: '0', MARKET_HISTORY_DAYS: '0' },
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}

export default defineConfig({
  test: {
    maxWorkers: workers,
    reporters: report
      ? ['default', ['json', { outputFile: `artifacts/reports/${report}.json` }]]
      : ['default'],
    projects: [
      {
        test: {
          name: 'contract',
          include: ['packages/contract/test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'http-client',
          include: ['packages/http-client/test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: { name: 'admin', include: ['apps/admin/test/**/*.test.ts'], environment: 'node' },
      },
      serverProject('server', { isolate: false, exclude: SERVER_ISOLATED }),
      serverProject('server-isolated', { isolate: true, include: SERVER_ISOLATED }),
      {
        resolve: { alias: [{ find: '@', replacement: web }] },
        test: { name: 'web', include: ['apps/web/test/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'e2e',
          include: ['apps/web/e2e/**/*.e2e.ts', 'apps/admin/e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['apps/web/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A busy 2-core machine renders slower than 1 s now and then.
          expect: { poll: { timeout: 10_000, interval: 100 } },
        },
      },
    ],
  },
});
