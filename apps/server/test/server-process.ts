// The server and its CLIs as separate processes, the way an operator runs them.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSocket } from './socket-frames.ts';
import { expect } from 'vitest';
import { DEMO_ACCOUNT } from '../src/modules/demo/seed.ts';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export interface RunningServer extends ServerProcess {
  /** Undefined for ROLE=worker, which serves no API. */
  baseUrl: string | undefined;
  /** The ops port (health, readiness, metrics): a worker's WORKER_PORT, an API node's METRICS_PORT. */
  opsUrl: string | undefined;
}

/** Every process this file started, so a failed test leaves none behind. */
const started: ChildProcess[] = [];
export function killAll(): void {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Stops after SIGTERM at once unless `env` sets DRAIN_MS: these servers have no load balancer to leave. */
export function spawnServer(env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Starts the server (LOG_LEVEL info) and waits until its admin channel is up, or not (a log line either way). */
export async function startServer(env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const server = spawnServer(env);
  const deadline = Date.now() + 60_000;
  while (!server.output().includes('"msg":"admin channel')) {
    if (Date.now() > deadline || server.child.exitCode !== null)
      throw new Error(`the server did not start:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const baseUrl = server.output().match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
  const opsPort = server.output().match(/"port":(\d+),"msg":"ops port/)?.[1];
  return { ...server, baseUrl, opsUrl: opsPort ? `http://127.0.0.1:${opsPort}` : undefined };
}

export function stopServer(server: ServerProcess, signal: NodeJS.Signals): Promise<number | null> {
  server.child.kill(signal);
  return server.exited;
}

/** Runs `npm run ops` (cli/ops.ts), `npm run check:ledger` or `npm run migrate` and collects what it printed. */
export function runCli(
  env: NodeJS.ProcessEnv,
  script: 'ops' | 'check-ledger' | 'migrate',
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', `apps/server/src/cli/${script}.ts`, ...args],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

export async function api<T>(
  baseUrl: string,
  method: 'GET' | 'POST',
  url: string,
  options: { token?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 0) throw new Error(`${method} ${url}: ${envelope.message}`);
  return envelope.data;
}

/** The demo user's session (DEMO_MODE seeds the account). */
export async function demoToken(baseUrl: string): Promise<string> {
  return (
    await api<{ token: string }>(baseUrl, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password },
    })
  ).token;
}

export async function messageTitles(baseUrl: string, token: string): Promise<string[]> {
  return (
    await api<{ items: { title: string }[] }>(baseUrl, 'GET', '/api/v1/messages', { token })
  ).items.map((m) => m.title);
}

/** A signed-in socket subscribed to broadcasts; `next` resolves with the next frame. */
export async function broadcastSocket(baseUrl: string, token: string) {
  const { socket, next } = await openSocket(`${baseUrl.replace('http', 'ws')}/ws`);
  socket.send(JSON.stringify({ op: 'auth', token, id: 1 }));
  expect(await next()).toEqual({ op: 'auth', id: 1, ok: true });
  socket.send(JSON.stringify({ op: 'subscribe', channel: 'messages.broadcast', id: 2 }));
  expect(await next()).toEqual({ op: 'subscribe', id: 2, channel: 'messages.broadcast', ok: true });
  return { socket, next };
}
