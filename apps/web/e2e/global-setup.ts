import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import {
  type OperatorCredentials,
  bootstrapSecondAdmin,
  createOperatorByCli,
  operatorApiLogin,
} from '../../admin/e2e/operator.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** An administrator created with `npm run ops` before the server started, and its session (codes work once: use the token). */
    operator: OperatorCredentials & { token: string };
    /** The second admin, who approves the operators tests create (`createOperatorAs`). */
    approver: OperatorCredentials & { token: string };
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
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

/** Starts the product the way `npm start` serves it (built web app + API + WebSocket) on a fresh database. */
export default async function setup(project: TestProject) {
  if (
    !fs.existsSync(path.join(root, 'apps/web/dist/index.html')) ||
    !fs.existsSync(path.join(root, 'apps/admin/dist/index.html'))
  ) {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-e2e-'));
  const port = await freePort();
  const operator = createOperatorByCli(
    root,
    {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
    },
    'e2e-admin',
    'admin',
  );
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
  project.provide('baseUrl', baseUrl);
  const token = await operatorApiLogin(baseUrl, operator);
  project.provide('operator', { ...operator, token });
  // Every operator after the first is requested by one admin and approved by another.
  const approver = await bootstrapSecondAdmin(
    root,
    {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
    },
    baseUrl,
    token,
    'e2e-approver',
  );
  project.provide('approver', { ...approver, token: await operatorApiLogin(baseUrl, approver) });
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
