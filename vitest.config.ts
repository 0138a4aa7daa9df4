import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const web = fileURLToPath(new URL('./apps/web/src', import.meta.url));
const server = fileURLToPath(new URL('./apps/server/src', import.meta.url));

/** CI_REPORT=name also writes artifacts/reports/<name>.json, which .ci/run sums into one closing line. */
const report = process.env.CI_REPORT;

/**
 * Test files run two at a time: one worker keeps one of two cores busy (a PGlite database
 * runs in its test file's thread). On PostgreSQL one at a time: the server suite's files clone
 * one template database, which PostgreSQL copies one at a time. The browser suite runs its
 * files one after another whatever this says (they share one server).
 */
const workers = process.env.TEST_DATABASE_URL ? 1 : 2;

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
      {
        resolve: { alias: [{ find: /^#platform\/(.*)$/, replacement: `${server}/platform/$1` }] },
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
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
          fileParallelism: false,
          // A busy 2-core machine renders slower than 1 s now and then.
          expect: { poll: { timeout: 10_000, interval: 100 } },
        },
      },
    ],
  },
});
