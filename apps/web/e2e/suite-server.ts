import { inject } from 'vitest';
import type { SuiteServer } from './global-setup.ts';

/**
 * The suite's server for the worker running this file (global-setup.ts starts one per
 * worker): files that run at the same time never share a server.
 */
export function suiteServer(): SuiteServer {
  const servers = inject('servers');
  const slot = Number(process.env.VITEST_POOL_ID ?? '1') - 1;
  const server = servers[slot % servers.length];
  if (!server) throw new Error('the e2e global setup provided no server');
  return server;
}
