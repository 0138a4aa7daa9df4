// bench/ws-flood: what unauthenticated WebSocket floods do to the HTTP API (issue 26).
// Starts a server (embedded PGlite in a temporary DATA_DIR, demo mode, workers on, as
// `npm run serve` runs it), measures `GET /api/health` at a fixed rate while nothing else
// happens, then again while a separate process floods /ws from 127.0.0.1 through `--sockets`
// sockets that reopen as soon as they are closed or refused. Probes leave on a fixed
// schedule whether or not earlier ones were answered, so a stalled server shows as latency.
//
//   node --import tsx bench/ws-flood/run.ts [--root DIR] [--label after] [--sockets 10] [--seconds 30] [--idle-seconds 5] [--probe-rate 20] [--queued-kib 1024] [--churn 0] [--rate-limit]
//
// `--churn N`: each socket sends N pings and is dropped and replaced at once (see flood.ts).
//
// `--root` is the checkout whose server runs (e.g. a git worktree at an older commit, to
// measure "before" on the same machine); results go to this checkout's
// bench/results/ws-flood.json under `--label` (its last three runs), beside the other labels.
// Target: /api/health p99 ≤ 100 ms during the flood. The server gets 30 s to boot; the run
// after that stops by itself within a minute (a watchdog kills everything if it hangs).
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, freePort, percentile, runStamp } from '../lib/harness.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: ROOT },
    label: { type: 'string', default: 'after' },
    sockets: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '30' },
    'idle-seconds': { type: 'string', default: '5' },
    'probe-rate': { type: 'string', default: '20' },
    'queued-kib': { type: 'string', default: '1024' },
    churn: { type: 'string', default: '0' },
    'rate-limit': { type: 'boolean', default: false },
  },
});
const root = path.resolve(values.root);
const label = values.label;
const socketCount = Number(values.sockets);
const floodSeconds = Number(values.seconds);
const idleSeconds = Number(values['idle-seconds']);
const probeRate = Number(values['probe-rate']);
/** A probe unanswered this long counts as timed out (its latency is recorded as this). */
const PROBE_TIMEOUT_MS = 10_000;
/** The results file keeps this many latest runs per label: rounds taken in one sitting, compared side by side. */
const RUNS_KEPT_PER_LABEL = 3;
const BOOT_TIMEOUT_MS = 30_000;
const WATCHDOG_MS = 60_000;
if (!fs.existsSync(path.join(root, 'apps/server/src/main.ts')))
  throw new Error(`${root} is not a Tradewind checkout`);
if ((idleSeconds + floodSeconds) * 1000 + PROBE_TIMEOUT_MS + 5_000 > WATCHDOG_MS)
  throw new Error('--idle-seconds plus --seconds must leave the run under a minute');

const children = new Set<ChildProcess>();

const loadAtStart = os.loadavg().map((l) => Number(l.toFixed(2)));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-ws-flood-'));
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env: Record<string, string | undefined> = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DEMO_MODE: 'true',
  DEMO_HISTORY_DAYS: '0',
  RATE_LIMIT_ENABLED: values['rate-limit'] ? 'true' : 'false',
  LOG_LEVEL: 'warn',
  WEB_DIST: '/nonexistent',
  ADMIN_DIST: '/nonexistent',
};
// Embedded PGlite, whatever the shell points at.
delete env.DATABASE_URL;
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
children.add(server);

async function stopServer(): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

const bootStarted = performance.now();
while (true) {
  if (performance.now() - bootStarted > BOOT_TIMEOUT_MS || server.exitCode !== null) {
    await stopServer();
    throw new Error('the server did not answer /api/health');
  }
  try {
    if ((await fetch(`${baseUrl}/api/health`)).ok) break;
  } catch {
    // Not listening yet.
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const bootMs = Math.round(performance.now() - bootStarted);
const watchdog = setTimeout(() => {
  console.error(
    `ws-flood: still running ${WATCHDOG_MS} ms after the server booted; stopping everything`,
  );
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

interface ProbeResult {
  latencyMs: number;
  ok: boolean;
  timedOut: boolean;
}

/** `/api/health` at `rate` a second for `seconds`, each probe on its own schedule (open loop). */
async function probe(seconds: number): Promise<ProbeResult[]> {
  const count = Math.round(seconds * probeRate);
  const t0 = performance.now();
  const probes: Promise<ProbeResult>[] = [];
  for (let i = 0; i < count; i++) {
    const wait = t0 + (i * 1000) / probeRate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const started = performance.now();
    probes.push(
      fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
        .then(async (response) => {
          await response.arrayBuffer();
          return { latencyMs: performance.now() - started, ok: response.ok, timedOut: false };
        })
        .catch((error: unknown) => {
          const timedOut = error instanceof Error && error.name === 'TimeoutError';
          return {
            latencyMs: timedOut ? PROBE_TIMEOUT_MS : performance.now() - started,
            ok: false,
            timedOut,
          };
        }),
    );
  }
  return Promise.all(probes);
}

/**
 * The server's CPU time so far (ms, in total and in the kernel), from /proc on Linux (null
 * elsewhere): on a shared machine the probes' latency also carries other processes' load, its
 * CPU time does not. The kernel's share is most of what a connection costs before any
 * JavaScript runs (accepting, reading, closing).
 */
function serverCpuMs(): { total: number; system: number } | null {
  try {
    const fields =
      fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const user = Number(fields[11]);
    const system = Number(fields[12]);
    return Number.isFinite(user + system)
      ? { total: ((user + system) * 1000) / 100, system: (system * 1000) / 100 }
      : null;
  } catch {
    return null;
  }
}

/** Runs `phase`, returning its result and the share of one core the server used meanwhile (1 = a whole core), in total and in the kernel. */
async function withServerCpu<T>(phase: () => Promise<T>): Promise<{
  result: T;
  serverCores: number | null;
  serverSystemCores: number | null;
  seconds: number;
}> {
  const cpu0 = serverCpuMs();
  const t0 = performance.now();
  const result = await phase();
  const cpu1 = serverCpuMs();
  const elapsedMs = performance.now() - t0;
  const cores = (pick: 'total' | 'system') =>
    cpu0 === null || cpu1 === null
      ? null
      : Math.round(((cpu1[pick] - cpu0[pick]) / elapsedMs) * 100) / 100;
  return {
    result,
    serverCores: cores('total'),
    serverSystemCores: cores('system'),
    seconds: elapsedMs / 1000,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
function summarise(results: ProbeResult[]) {
  const sorted = results.map((r) => r.latencyMs).sort((a, b) => a - b);
  return {
    probes: results.length,
    failed: results.filter((r) => !r.ok).length,
    timedOut: results.filter((r) => r.timedOut).length,
    p50Ms: round1(percentile(sorted, 50)),
    p99Ms: round1(percentile(sorted, 99)),
    maxMs: round1(sorted.at(-1) ?? Number.NaN),
  };
}

const idlePhase = await withServerCpu(() => probe(idleSeconds));
const idle = {
  ...summarise(idlePhase.result),
  serverCores: idlePhase.serverCores,
  serverSystemCores: idlePhase.serverSystemCores,
};
console.log(`idle:  ${JSON.stringify(idle)}`);

const flooder = fork(
  path.join(ROOT, 'bench/ws-flood/flood.ts'),
  [
    `ws://127.0.0.1:${port}/ws`,
    String(socketCount),
    String(floodSeconds),
    values['queued-kib'],
    values.churn,
  ],
  {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  },
);
children.add(flooder);
const floodCounters = new Promise<Record<string, unknown>>((resolve, reject) => {
  flooder.on(
    'message',
    (message: { counters?: Record<string, unknown> }) =>
      message.counters && resolve(message.counters),
  );
  flooder.once('exit', (code) =>
    reject(new Error(`the flooder exited with ${code} before reporting`)),
  );
});
// Let the sockets open and the flood start before the first probe.
await new Promise((resolve) => setTimeout(resolve, 500));
const floodPhase = await withServerCpu(() => probe(floodSeconds - 1));
const underFlood = {
  ...summarise(floodPhase.result),
  serverCores: floodPhase.serverCores,
  serverSystemCores: floodPhase.serverSystemCores,
};
const flood = await floodCounters;
// What one connection attempt (an upgrade, or a refusal before it) cost the server: a closed-loop
// attacker makes as many attempts as the server answers, so its CPU alone does not show a cheaper refusal.
const attempts = Number(flood.connects ?? 0) + Number(flood.refused ?? 0);
const serverCpuUsPerAttempt =
  floodPhase.serverCores === null || attempts === 0
    ? null
    : Math.round((floodPhase.serverCores * floodPhase.seconds * 1e6) / attempts);
console.log(`flood: ${JSON.stringify(underFlood)}`);
console.log(`       ${JSON.stringify(flood)}`);
await stopServer();
fs.rmSync(dataDir, { recursive: true, force: true });

/** The checkout's commit, with `+changes` when its working tree differed from it (an "after" measured before committing). */
const commit = (() => {
  try {
    const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
    }).trim();
    const changed =
      execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no'], {
        encoding: 'utf8',
      }).trim() !== '';
    return changed ? `${head}+changes` : head;
  } catch {
    return null;
  }
})();
const run = {
  ...runStamp(),
  label,
  root,
  commit,
  node: process.version,
  settings: {
    sockets: socketCount,
    floodSeconds,
    idleSeconds,
    probeRatePerSecond: probeRate,
    probeTimeoutMs: PROBE_TIMEOUT_MS,
    queuedKibPerSocket: Number(values['queued-kib']),
    churnPerSocket: Number(values.churn),
    rateLimitEnabled: values['rate-limit'],
    database: 'pglite',
  },
  bootMs,
  loadAverageAtStart: loadAtStart,
  health: { idle, underFlood },
  flood,
  serverCpuUsPerAttempt,
  target: { healthP99Ms: 100, met: underFlood.p99Ms <= 100 && underFlood.failed === 0 },
};

const file = path.join(ROOT, 'bench/results/ws-flood.json');
const previous = fs.existsSync(file)
  ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { runs?: Record<string, unknown[]> })
  : {};
const runs = {
  ...previous.runs,
  [label]: [...(previous.runs?.[label] ?? []), run].slice(-RUNS_KEPT_PER_LABEL),
};
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify({ bench: 'ws-flood', runs }, null, 2)}\n`);
console.log(
  `\nws-flood (${label}, ${root} @ ${commit}): ${socketCount} flooding sockets for ${floodSeconds} s, /api/health at ${probeRate}/s`,
);
console.log(
  `  idle:        p50 ${idle.p50Ms} ms, p99 ${idle.p99Ms} ms, max ${idle.maxMs} ms; server CPU ${idle.serverCores} cores`,
);
console.log(
  `  under flood: p50 ${underFlood.p50Ms} ms, p99 ${underFlood.p99Ms} ms, max ${underFlood.maxMs} ms, ${underFlood.failed} failed (target p99 ≤ 100 ms: ${run.target.met ? 'met' : 'missed'}); server CPU ${underFlood.serverCores} cores (${underFlood.serverSystemCores} in the kernel)`,
);
console.log(
  `  flood: ${JSON.stringify(flood)}; server CPU per connection attempt ${serverCpuUsPerAttempt} µs`,
);
process.exit(0);
