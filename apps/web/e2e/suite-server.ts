import { inject } from 'vitest';

/** An operator of a suite server: its sign-in and a session (codes work once: use the token). */
export interface SuiteOperator {
  username: string;
  password: string;
  totpSecret: string;
  token: string;
}

/** One server of the suite (global-setup.ts starts one per worker), with its two administrators. */
export interface SuiteServer {
  baseUrl: string;
  /** An administrator created with `npm run ops` before the server started. */
  operator: SuiteOperator;
  /** The second admin, who approves the operators tests create (`createOperatorAs`). */
  approver: SuiteOperator;
}

/**
 * The suite's server for the worker running this file: files that run at the same time never
 * share a server.
 */
export function suiteServer(): SuiteServer {
  const servers = inject('servers');
  const slot = Number(process.env.VITEST_POOL_ID ?? '1') - 1;
  const server = servers[slot % servers.length];
  if (!server) throw new Error('the e2e global setup provided no server');
  return server;
}
