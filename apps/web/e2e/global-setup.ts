import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { SuiteServer } from './suite-server.ts';
import {
  bootstrapSecondAdmin,
  createOperatorByCli,
  operatorApiLogin,
} from '../../admin/e2e/operator.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker (suite-server.ts picks a file's): files running at once never share one. */
    servers: SuiteServer[];
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** `count` distinct free ports: each is held until all are found, so no two are the same. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.listen(0, '127.0.0.1', () => resolve(server));
          server.on('error', reject);
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((r) => server.close(r))));
  return ports;
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

/**
 * Starts the product the way `npm start` serves it (built web app + API + WebSocket) on a fresh
 * database, with its two administrators.
 */
async function startSuiteServer(
  name: string,
  port: number,
): Promise<{ server: SuiteServer; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tw-e2e-${name}-`));
  const cliEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
  };
  const operator = createOperatorByCli(root, cliEnv, 'e2e-admin', 'admin');
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_MODE: 'true',
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      DRAIN_MS: '0',
      // A non-zero fee, so the bank-card deposit screen shows it being applied.
      CARD_DEPOSIT_FEE_BPS: '150',
      // A 5-second mining day (demo mode only), so a rental's payout arrives during the journey.
      MINING_DAY_SECONDS: '5',
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, child, () => output);
  const token = await operatorApiLogin(baseUrl, operator);
  // Every operator after the first is requested by one admin and approved by another.
  const approver = await bootstrapSecondAdmin(root, cliEnv, baseUrl, token, 'e2e-approver');
  return {
    server: {
      baseUrl,
      operator: { ...operator, token },
      approver: { ...approver, token: await operatorApiLogin(baseUrl, approver) },
    },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One server per worker (E2E_SERVERS, default 2): a browser test spends most of its time
 * waiting for a page, so two files at once use two cores well (docs/testing.md), and each has
 * a server of its own, so a file that changes the catalog or closes a market never meets
 * another file's expectations. On PostgreSQL (E2E_DATABASE_URL) one server, one file at a time.
 */
export default async function setup(project: TestProject) {
  if (
    !fs.existsSync(path.join(root, 'apps/web/dist/index.html')) ||
    !fs.existsSync(path.join(root, 'apps/admin/dist/index.html'))
  ) {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  }
  const count = process.env.E2E_DATABASE_URL ? 1 : Number(process.env.E2E_SERVERS ?? '2');
  const ports = await freePorts(count);
  const started = await Promise.all(ports.map((port, i) => startSuiteServer(String(i + 1), port)));
  project.provide(
    'servers',
    started.map((s) => s.server),
  );
  return async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
}
