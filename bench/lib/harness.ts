import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** Shared by the benchmarks: a scratch PostgreSQL database, a server process, a load loop. */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PG_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  return withDatabase(PG_URL, name);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** SIGTERM: the server drains and exits. */
  stop: () => Promise<void>;
  /** SIGKILL: the process dies mid-whatever, as on a power cut (bench/chaos). */
  kill: () => Promise<void>;
}

/** Starts the server and resolves once it answers /api/health (or after 60 s). `nodeArgs` go before the script, e.g. `--cpu-prof` to profile the server under load. */
export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const server = await spawnServer(databaseUrl, env, nodeArgs);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${server.baseUrl}/api/health`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return server;
}

/** Starts the server without waiting for it to be ready (bench/chaos kills some mid-boot). */
export async function spawnServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        DEMO_MODE: 'true',
        RATE_LIMIT_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent',
        // No load balancer moves traffic away here: stop at once on SIGTERM (a bench may set it).
        DRAIN_MS: '0',
        // Benchmarks measure the product without demo mode's background history writes.
        DEMO_HISTORY_DAYS: '0',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const signal = (name: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(name);
    });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}

/**
 * The server as `npm start` runs it: demo mode on a fresh embedded PGlite database in a temporary
 * `DATA_DIR` (removed at `stop`), resolved once it answers /api/health. `root` picks the checkout
 * whose server runs (a worktree of an older commit, for a before-and-after run); `env` adds to or
 * overrides the settings (rate limits are off unless it turns them on).
 */
export async function startEmbeddedServer(
  options: { root?: string; env?: Record<string, string> } = {},
): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-embedded-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: options.root ?? ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO_MODE: 'true',
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      DRAIN_MS: '0',
      DEMO_HISTORY_DAYS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }).then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const baseUrl = `http://127.0.0.1:${port}`;
  // A new PGlite database migrates first: on a busy machine that takes a while.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if (
      await fetch(`${baseUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { baseUrl, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error('the server did not become healthy');
}

export async function post(
  baseUrl: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { code: number; data: unknown; message: string };
}

/** Every bench user's sign-in password. */
export const BENCH_PASSWORD = 'bench-password-1';

/** Registers a user through the API with the dev outbox's code; returns token and uid. */
export async function registerUser(
  baseUrl: string,
  email: string,
): Promise<{ token: string; uid: number }> {
  await post(baseUrl, '/api/v1/auth/codes', {
    channel: 'email',
    account: email,
    purpose: 'register',
  });
  const outbox = (await (
    await fetch(`${baseUrl}/api/v1/dev/outbox?to=${encodeURIComponent(email)}`)
  ).json()) as { data: { items: { body: string }[] } };
  const code = outbox.data.items[0]?.body.match(/\b(\d{6})\b/)?.[1];
  const reply = await post(baseUrl, '/api/v1/auth/register', {
    mode: 'code',
    channel: 'email',
    account: email,
    code,
    password: BENCH_PASSWORD,
    confirmPassword: BENCH_PASSWORD,
  });
  if (reply.code !== 0) throw new Error(`register failed: ${reply.message}`);
  const data = reply.data as { token: string; uid: string };
  return { token: data.token, uid: Number(data.uid) };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * Runs `worker` on `concurrency` loops until `seconds` pass; returns per-request latencies (ms) and outcome counts.
 * With BENCH_LATENCY_LOG=<file>, each request's end time (epoch ms) and latency are written there, one per line,
 * to see when the slow ones happened.
 */
const LATENCY_LOG = process.env.BENCH_LATENCY_LOG;

export async function load(
  seconds: number,
  concurrency: number,
  worker: (i: number) => Promise<boolean>,
) {
  const latencies: number[] = [];
  const trace: string[] = [];
  let ok = 0;
  let failed = 0;
  let counter = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const i = counter++;
        const t0 = performance.now();
        const success = await worker(i).catch(() => false);
        latencies.push(performance.now() - t0);
        if (LATENCY_LOG) trace.push(`${Date.now()} ${(performance.now() - t0).toFixed(1)}`);
        if (success) ok++;
        else failed++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  if (LATENCY_LOG) fs.writeFileSync(LATENCY_LOG, `${trace.join('\n')}\n`);
  latencies.sort((a, b) => a - b);
  return {
    ok,
    failed,
    elapsed,
    rate: ok / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

export function pgbenchTps(output: string): number {
  const match = output.match(
    /tps = ([\d.]+) \((?:without initial connection time|excluding connections establishing)\)/,
  );
  if (!match?.[1]) throw new Error(`no tps in pgbench output:\n${output}`);
  return Number(match[1]);
}

/** mulberry32: a small seedable generator in [0, 1), so a run with the same seed offers the same traffic. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** What every results file starts with: when, on what machine, and how busy it was at the end. */
export function runStamp() {
  return {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}
