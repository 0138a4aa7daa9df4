// The deployment files (issue 31) against what they deploy: the Dockerfile against the repo's
// scripts and the build's outputs, deploy/compose.yaml through `docker compose config` and
// against the server's own settings, and the Grafana dashboard against the exported metrics.
// No image is built or pulled here: the machines have Docker's client but no engine.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../src/platform/config.ts';
import { MIGRATIONS_DIR } from '../src/platform/db.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/**
 * Every metric a dashboard or alert may name, and its kind: the server's registry
 * (platform/metrics.ts) and prom-client's default process metrics. A histogram is queried
 * through its `_bucket`, `_sum` and `_count` series. Scraped, each series also carries
 * Prometheus' `job` and `instance` (so the job rounds name theirs `task`).
 */
export const EXPORTED_METRICS = {
  tradewind_http_request_duration_seconds: 'histogram',
  tradewind_orders_placed_total: 'counter',
  tradewind_orders_settled_total: 'counter',
  tradewind_orders_voided_total: 'counter',
  tradewind_settlement_lag_seconds: 'histogram',
  tradewind_orders_overdue: 'gauge',
  tradewind_tick_age_seconds: 'gauge',
  tradewind_source_age_seconds: 'gauge',
  tradewind_quarantined_updates_total: 'counter',
  tradewind_ledger_check_ok: 'gauge',
  tradewind_ledger_check_duration_seconds: 'gauge',
  tradewind_ledger_check_last_run_timestamp_seconds: 'gauge',
  tradewind_ws_connections: 'gauge',
  tradewind_ws_subscriptions: 'gauge',
  tradewind_ws_messages_sent_total: 'counter',
  tradewind_event_bus_connected: 'gauge',
  tradewind_event_bus_delivery_lag_seconds: 'histogram',
  tradewind_db_pool_in_use: 'gauge',
  tradewind_db_pool_waiting: 'gauge',
  tradewind_db_pool_max: 'gauge',
  tradewind_job_rounds_total: 'counter',
  tradewind_job_last_success_timestamp_seconds: 'gauge',
  tradewind_ready: 'gauge',
  tradewind_readiness_changes_total: 'counter',
  process_cpu_user_seconds_total: 'counter',
  process_cpu_system_seconds_total: 'counter',
  process_cpu_seconds_total: 'counter',
  process_start_time_seconds: 'gauge',
  process_resident_memory_bytes: 'gauge',
  process_virtual_memory_bytes: 'gauge',
  process_heap_bytes: 'gauge',
  process_open_fds: 'gauge',
  process_max_fds: 'gauge',
  nodejs_eventloop_lag_seconds: 'gauge',
  nodejs_eventloop_lag_min_seconds: 'gauge',
  nodejs_eventloop_lag_max_seconds: 'gauge',
  nodejs_eventloop_lag_mean_seconds: 'gauge',
  nodejs_eventloop_lag_stddev_seconds: 'gauge',
  nodejs_eventloop_lag_p50_seconds: 'gauge',
  nodejs_eventloop_lag_p90_seconds: 'gauge',
  nodejs_eventloop_lag_p99_seconds: 'gauge',
  nodejs_active_resources: 'gauge',
  nodejs_active_resources_total: 'gauge',
  nodejs_active_handles: 'gauge',
  nodejs_active_handles_total: 'gauge',
  nodejs_active_requests: 'gauge',
  nodejs_active_requests_total: 'gauge',
  nodejs_heap_size_total_bytes: 'gauge',
  nodejs_heap_size_used_bytes: 'gauge',
  nodejs_external_memory_bytes: 'gauge',
  nodejs_heap_space_size_total_bytes: 'gauge',
  nodejs_heap_space_size_used_bytes: 'gauge',
  nodejs_heap_space_size_available_bytes: 'gauge',
  nodejs_version_info: 'gauge',
  nodejs_gc_duration_seconds: 'histogram',
} as const satisfies Record<string, 'counter' | 'gauge' | 'histogram'>;

// --- What the build writes, read from the build's own files ---

/** The server build's entries (apps/server/scripts/build.ts): `dist/<name>.js` from `src/…`. */
function serverEntries(): Map<string, string> {
  const script = read('apps/server/scripts/build.ts');
  expect(script, 'build.ts writes to apps/server/dist').toMatch(
    /const outdir = path\.join\(serverDir, 'dist'\)/,
  );
  const block = /const ENTRIES = \{([\s\S]*?)\};/.exec(script)?.[1];
  expect(block, 'build.ts lists its ENTRIES').toBeDefined();
  const entries = new Map<string, string>();
  for (const [, name, source] of (block as string).matchAll(/^\s*'?([\w-]+)'?:\s*'([^']+)'/gm))
    entries.set(`apps/server/dist/${name}.js`, source as string);
  expect(entries.size).toBeGreaterThan(0);
  return entries;
}

const relative = (absolute: string) => path.relative(root, absolute).split(path.sep).join('/');

/**
 * The folders `npm run build` produces, each from where it is decided: the server's outdir,
 * the web app and console where the server looks for them by default (WEB_DIST, ADMIN_DIST:
 * Vite's default outDir), and the web app's server renderer (its Vite config's SSR outDir).
 */
function buildOutputs(): string[] {
  const config = loadConfig({});
  const webDist = relative(config.webDist);
  const adminDist = relative(config.adminDist);
  expect(read('apps/web/vite.config.ts')).toContain("outDir: 'build-ssr'");
  expect(read('apps/admin/vite.config.ts'), "the console builds to Vite's dist").not.toContain(
    'outDir',
  );
  return ['apps/server/dist', webDist, path.posix.join(webDist, '..', 'build-ssr'), adminDist];
}

/** What the compiled server reads from the checkout at run time, beside node_modules. */
function runtimeReads(): string[] {
  const i18n = /path\.dirname\(fileURLToPath\(import\.meta\.url\)\),\s*'([^']+)'/.exec(
    read('apps/server/src/platform/i18n.ts'),
  )?.[1];
  expect(i18n, "i18n.ts's folder of shared messages").toBeDefined();
  const i18nDir = path.resolve(root, 'apps/server/src/platform', i18n as string);
  return [...buildOutputs(), relative(MIGRATIONS_DIR), relative(i18nDir)];
}

// --- The Dockerfile ---

interface Instruction {
  stage: string;
  keyword: string;
  args: string;
}

/** Instructions by stage, continuation lines joined and comments dropped, FROM's ARGs resolved. */
function parseDockerfile(text: string) {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    if (/^\s*#/.test(raw)) continue;
    const line = raw.trimEnd();
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const joined = (pending + line).trim();
    pending = '';
    if (joined !== '') lines.push(joined);
  }
  const args = new Map<string, string>();
  const stages: { name: string; image: string }[] = [];
  const instructions: Instruction[] = [];
  for (const line of lines) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === 'ARG' && stages.length === 0) {
      const [name = '', value = ''] = rest.split('=', 2);
      args.set(name, value);
      continue;
    }
    if (upper === 'FROM') {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      expect(from, line).not.toBeNull();
      const image = (from?.[1] ?? '').replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => {
        const value = args.get(a ?? b);
        expect(value, `ARG ${a ?? b} has a default`).toBeDefined();
        return value as string;
      });
      stages.push({ name: from?.[2] ?? String(stages.length), image });
      continue;
    }
    const stage = stages.at(-1);
    expect(stage, `${line}: an instruction before the first FROM`).toBeDefined();
    instructions.push({ stage: stage?.name as string, keyword: upper, args: rest });
  }
  return { stages, instructions };
}

/** COPY's flags, sources and destination (the shell form; no JSON form is used). */
function parseCopy(args: string) {
  const words = args.split(/\s+/);
  const flags = new Map<string, string>();
  while (words[0]?.startsWith('--')) {
    const [name = '', value = ''] = (words.shift() as string).slice(2).split('=', 2);
    flags.set(name, value);
  }
  const destination = words.pop() as string;
  return { from: flags.get('from'), sources: words, destination };
}

/** The .dockerignore patterns as matchers: a path is left out when it or a folder above it matches. */
function dockerignore(): (file: string) => boolean {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  expect(
    patterns.filter((p) => p.startsWith('!')),
    'no exceptions: this matcher has none',
  ).toEqual([]);
  const matchers = patterns.map((pattern) => {
    const source = pattern
      .replace(/^\/+/, '')
      .split(/(\*\*\/|\*\*|\*|\?)/)
      .map((part) => {
        if (part === '**/') return '(?:.*/)?';
        if (part === '**') return '.*';
        if (part === '*') return '[^/]*';
        if (part === '?') return '[^/]';
        return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    return new RegExp(`^${source}$`);
  });
  return (file) => {
    const parts = file.split('/');
    return parts.some((_, i) => {
      const prefix = parts.slice(0, i + 1).join('/');
      return matchers.some((m) => m.test(prefix));
    });
  };
}

/** `npm run X` (with -w/--workspace W) in a RUN: the package.json whose scripts must have X. */
function npmRuns(command: string): { script: string; manifest: string }[] {
  const found: { script: string; manifest: string }[] = [];
  for (const match of command.matchAll(/npm run ((?:-{1,2}[\w-]+(?:[ =]\S+)?\s+)*)([\w:-]+)/g)) {
    const workspace = /(?:-w|--workspace)[ =](\S+)/.exec(match[1] ?? '')?.[1];
    const manifest = workspace
      ? (['apps', 'packages']
          .flatMap((dir) =>
            fs.readdirSync(path.join(root, dir)).map((name) => `${dir}/${name}/package.json`),
          )
          .find(
            (file) =>
              fs.existsSync(path.join(root, file)) && JSON.parse(read(file)).name === workspace,
          ) ?? `(no workspace ${workspace})`)
      : 'package.json';
    found.push({ script: match[2] as string, manifest });
  }
  return found;
}

describe('Dockerfile', () => {
  const { stages, instructions } = parseDockerfile(read('Dockerfile'));
  const runtime = stages.at(-1);
  const inStage = (stage: string | undefined, keyword: string) =>
    instructions.filter((i) => i.stage === stage && i.keyword === keyword);
  /** A stage and the stages it is built FROM, nearest first. */
  const lineage = (name: string): string[] => {
    const stage = stages.find((s) => s.name === name);
    return stage ? [name, ...lineage(stage.image)] : [];
  };
  const runsIn = (name: string) => lineage(name).flatMap((stage) => inStage(stage, 'RUN'));

  it('has a build stage and a runtime stage on a pinned Node 20 slim image', () => {
    expect(stages.map((s) => s.name)).toContain('build');
    expect(runtime?.name).toBe('runtime');
    expect(runtime?.image).toMatch(/^node:20\.\d+\.\d+-(bookworm-)?slim$/);
  });

  it('the build stage installs everything and runs `npm run build`; every `npm run` names a script that exists', () => {
    const build = runsIn('build').map((i) => i.args);
    expect(build.some((run) => /\bnpm ci\b(?!.*--omit=dev)/.test(run))).toBe(true);
    expect(build.some((run) => /\bnpm run build\b/.test(run))).toBe(true);
    const runs = instructions.filter((i) => i.keyword === 'RUN').flatMap((i) => npmRuns(i.args));
    expect(runs.length).toBeGreaterThan(0);
    for (const { script, manifest } of runs) {
      expect(fs.existsSync(path.join(root, manifest)), manifest).toBe(true);
      expect(Object.keys(JSON.parse(read(manifest)).scripts ?? {}), `${manifest}`).toContain(
        script,
      );
    }
  });

  it('the runtime stage takes node_modules from a production-only install, and no dev dependency', () => {
    const fromStages = inStage(runtime?.name, 'COPY')
      .map((i) => parseCopy(i.args))
      .filter((copy) => copy.from !== undefined && copy.from !== 'build');
    expect(fromStages.length).toBeGreaterThan(0);
    for (const copy of fromStages) {
      const installs = runsIn(copy.from as string)
        .map((i) => i.args)
        .filter((run) => /\bnpm (ci|install)\b(?! --global)/.test(run));
      expect(installs, `stage ${copy.from}`).not.toEqual([]);
      for (const run of installs) expect(run, `stage ${copy.from}`).toMatch(/--omit=dev/);
    }
    expect(
      runsIn(runtime?.name as string)
        .map((i) => i.args)
        .join('\n'),
    ).not.toMatch(/\bnpm (ci|install)\b/);
  });

  it('copies from the build context only files the repository has and .dockerignore keeps', () => {
    const ignored = dockerignore();
    for (const entry of ['node_modules', '.git', 'data', 'artifacts', 'apps/web/dist'])
      expect(ignored(entry), `.dockerignore leaves out ${entry}`).toBe(true);
    const copies = instructions
      .filter((i) => i.keyword === 'COPY')
      .map((i) => parseCopy(i.args))
      .filter((copy) => copy.from === undefined);
    expect(copies.length).toBeGreaterThan(0);
    for (const source of copies.flatMap((copy) => copy.sources)) {
      if (source === '.') continue;
      expect(fs.existsSync(path.join(root, source)), source).toBe(true);
      expect(ignored(source), `${source} is in .dockerignore`).toBe(false);
    }
  });

  it('copies from the build stage only what the build produces or the repository has, and everything the compiled server reads', () => {
    const outputs = buildOutputs();
    const workdir = '/app/';
    const fromBuild = inStage(runtime?.name, 'COPY')
      .map((i) => parseCopy(i.args))
      .filter((copy) => copy.from === 'build');
    const copied: string[] = [];
    for (const copy of fromBuild) {
      for (const source of copy.sources) {
        expect(source.startsWith(workdir), `${source} is under the build's WORKDIR`).toBe(true);
        const file = source.slice(workdir.length).replace(/\/$/, '');
        const produced = outputs.some((out) => file === out || file.startsWith(`${out}/`));
        const inRepo = fs.existsSync(path.join(root, file));
        expect(produced || inRepo, `${file}: neither built nor in the repository`).toBe(true);
        // Copied to the same place under the runtime's WORKDIR, where the server looks.
        expect(copy.destination.replace(/\/$/, ''), source).toBe(file);
        copied.push(file);
      }
    }
    for (const needed of runtimeReads())
      expect(
        copied.some((file) => needed === file || needed.startsWith(`${file}/`)),
        `the image lacks ${needed}`,
      ).toBe(true);
  });

  it('runs a file the server build writes, as a user that is not root, with a health check on /api/health', () => {
    const cmd = inStage(runtime?.name, 'CMD').at(-1);
    const argv = JSON.parse(cmd?.args ?? 'null') as string[];
    expect(argv[0]).toBe('node');
    expect(serverEntries().get(argv[1] as string), `${argv[1]} is built from src/main.ts`).toBe(
      'src/main.ts',
    );
    const user = inStage(runtime?.name, 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0', 'root:root', '0:0']).not.toContain(user);
    const healthcheck = inStage(runtime?.name, 'HEALTHCHECK').at(-1)?.args ?? '';
    expect(healthcheck).toMatch(/\bCMD\b/);
    expect(healthcheck).toContain('/api/health');
  });
});

// --- The compose file ---

type Env = Record<string, string>;

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, unknown>;
  depends_on?: Record<string, { condition?: string }>;
  init?: boolean;
  ports?: string[];
  stop_grace_period?: string;
}

/** deploy/.env.example: NAME=value lines, each after a comment line that says what it is. */
function envExample(): { values: Env; uncommented: string[] } {
  const values: Env = {};
  const uncommented: string[] = [];
  const lines = read('deploy/.env.example').split('\n');
  lines.forEach((line, i) => {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) return;
    values[match[1] as string] = match[2] as string;
    if (!lines[i - 1]?.startsWith('#')) uncommented.push(match[1] as string);
  });
  return { values, uncommented };
}

/** Compose's interpolation of ${NAME}, ${NAME:-default}, ${NAME:?error} (and without the colon), and $$. */
function interpolate(text: string, vars: Env): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (match, name: string | undefined, op: string | undefined, arg: string | undefined) => {
      if (match === '$$') return '$';
      const value = vars[name as string];
      const missing = op?.startsWith(':') ? !value : value === undefined;
      if (op?.endsWith('?') && missing) throw new Error(`${name}: ${arg}`);
      if (op?.endsWith('-') && missing) return arg ?? '';
      return value ?? '';
    },
  );
}

/** The compose client: Compose v2 (`docker compose`), else v1 (`docker-compose`). */
function composeCommand(): string[] {
  const works = (command: string, args: string[]) =>
    spawnSync(command, args, { encoding: 'utf8' }).status === 0;
  if (works('docker', ['compose', 'version'])) return ['docker', 'compose'];
  if (works('docker-compose', ['version'])) return ['docker-compose'];
  const docker = spawnSync('docker', ['--version'], { encoding: 'utf8' });
  throw new Error(
    docker.error
      ? 'the docker binary is missing: this test needs Docker Compose to check deploy/compose.yaml (apt-get install docker-compose)'
      : 'docker is installed without Compose: neither `docker compose` nor `docker-compose` answers (apt-get install docker-compose)',
  );
}

describe('deploy/compose.yaml', () => {
  const text = read('deploy/compose.yaml');
  const compose = parseYaml(text, { merge: true }) as { services: Record<string, ComposeService> };
  const { values: example, uncommented } = envExample();
  const tradewind = Object.entries(compose.services).filter(([, service]) => service.build);
  /** A Tradewind service's environment as a container gets it from deploy/.env.example. */
  const environment = (service: ComposeService): Env =>
    Object.fromEntries(
      Object.entries(service.environment ?? {}).map(([name, value]) => [
        name,
        interpolate(String(value), example),
      ]),
    );
  const nodes = tradewind.filter(([, service]) => environment(service).ROLE !== undefined);

  it('`docker compose config` accepts it with deploy/.env.example', () => {
    const [command, ...prefix] = composeCommand();
    // Only the env file's values: a variable of this shell would override them.
    const result = spawnSync(
      command as string,
      [
        ...prefix,
        '-f',
        'deploy/compose.yaml',
        '--env-file',
        'deploy/.env.example',
        'config',
        '--quiet',
      ],
      { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } },
    );
    expect(result.error).toBeUndefined();
    expect(result.status, result.stderr).toBe(0);
  });

  it("names only settings the server knows, in every Tradewind service's environment", () => {
    const known = new Set(loadConfig({}).settings.map((setting) => setting.name));
    expect(known.has('DATABASE_URL')).toBe(true);
    expect(tradewind.length).toBeGreaterThan(0);
    const unknown = tradewind.flatMap(([name, service]) =>
      Object.keys(service.environment ?? {})
        .filter((setting) => !known.has(setting))
        .map((setting) => `${name}: ${setting}`),
    );
    expect(unknown).toEqual([]);
  });

  it("each Tradewind service's environment is one the server accepts: a migrate run, two API nodes and a worker", () => {
    const configs = tradewind.map(([name, service]) => ({
      name,
      service,
      config: loadConfig(environment(service)),
    }));
    for (const { config } of configs) {
      expect(config.databaseUrl).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(config.migrateOnStart).toBe(false);
      expect(config.demoMode).toBe(false);
      expect(config.redis?.url).toMatch(/@redis:6379/);
      expect(config.nats?.url).toBe('nats://nats:4222');
      expect(config.s3?.endpoint).toBe('http://minio:9000');
    }
    const roles = configs
      .filter(({ service }) => service.environment?.ROLE !== undefined)
      .map(({ config }) => config.role)
      .sort();
    expect(roles).toEqual(['api', 'api', 'worker']);
    const names = configs.map(({ config }) => config.nodeName);
    expect(new Set(names).size, 'every process has its own NODE_NAME').toBe(names.length);

    const migrate = compose.services.migrate;
    expect(migrate?.build).toBeDefined();
    const argv = migrate?.command as string[];
    expect(argv[0]).toBe('node');
    expect(serverEntries().get(argv[1] as string)).toBe('src/cli/migrate.ts');
  });

  it('every node waits for the migrations, runs under init, and has time to drain and stop', () => {
    expect(nodes.length).toBe(3);
    for (const [name, service] of nodes) {
      expect(service.depends_on?.migrate?.condition, name).toBe('service_completed_successfully');
      expect(service.init, name).toBe(true);
      const env = environment(service);
      const stopS = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '')?.[1]);
      const neededS = (Number(env.DRAIN_MS) + Number(env.SHUTDOWN_TIMEOUT_MS)) / 1000;
      expect(neededS, name).toBeGreaterThan(0);
      expect(
        stopS,
        `${name}: stop_grace_period covers DRAIN_MS + SHUTDOWN_TIMEOUT_MS`,
      ).toBeGreaterThan(neededS);
      const config = loadConfig(env);
      if (config.role === 'worker') {
        expect(env.WORKER_PORT, name).toBeDefined();
        expect(service.ports ?? [], `${name} publishes nothing`).toEqual([]);
      } else {
        expect(config.metrics.port, `${name} has a private metrics port`).toBeDefined();
        for (const port of service.ports ?? [])
          expect(interpolate(port, example), `${name}: published to this host only`).toMatch(
            /^127\.0\.0\.1:/,
          );
      }
    }
  });

  it('deploy/.env.example defines, with a comment each, every variable the compose file reads, and nothing else', () => {
    const withoutComments = text.replace(/^\s*#.*$/gm, '');
    const used = new Set(
      [...withoutComments.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map(
        (m) => m[1] as string,
      ),
    );
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((name) => !(name in example)).sort()).toEqual([]);
    expect(
      Object.keys(example)
        .filter((name) => !used.has(name))
        .sort(),
    ).toEqual([]);
    expect(uncommented).toEqual([]);
  });
});

// --- The Grafana dashboard ---

const PROMQL_KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const PROMQL_OPERATORS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/** The metric names a PromQL expression selects (function names, labels and strings left out). */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\$\{[^}]*\}|\$\w+/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(new RegExp(`\\b(${[...PROMQL_KEYWORDS].join('|')})\\s*\\([^)]*\\)`, 'g'), '')
    .replace(/(?<![\w:])\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi, '');
  const names: string[] = [];
  for (const match of bare.matchAll(/[A-Za-z_:][\w:]*/g)) {
    const word = match[0];
    if (
      bare
        .slice((match.index ?? 0) + word.length)
        .trimStart()
        .startsWith('(')
    )
      continue;
    if (PROMQL_OPERATORS.has(word.toLowerCase())) continue;
    names.push(word);
  }
  return names;
}

/** A series name as exported: a histogram's `_bucket`, `_sum`, `_count`; anything else itself. */
function exportedAs(series: string): string | undefined {
  const metrics: Record<string, string> = EXPORTED_METRICS;
  const histogram = /^(.*)_(bucket|sum|count)$/.exec(series)?.[1];
  if (histogram && metrics[histogram] === 'histogram') return histogram;
  return metrics[series] && metrics[series] !== 'histogram' ? series : undefined;
}

describe('deploy/grafana/tradewind.json', () => {
  interface Panel {
    type: string;
    title: string;
    datasource?: { uid?: string };
    targets?: { expr?: string; datasource?: { uid?: string } }[];
    panels?: Panel[];
  }
  const dashboard = JSON.parse(read('deploy/grafana/tradewind.json')) as {
    schemaVersion: number;
    uid: string;
    panels: Panel[];
    templating: { list: { name: string; type: string; query?: unknown }[] };
  };
  const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
  const targets = panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, ...t })));

  it('finds the metrics in an expression, and only them', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le, route) (rate(foo_bucket{status=~"5..", instance=~"$instance"}[$__rate_interval]))) / on (x) bar_total > 1e-9',
      ),
    ).toEqual(['foo_bucket', 'bar_total']);
    expect(exportedAs('tradewind_settlement_lag_seconds_bucket')).toBe(
      'tradewind_settlement_lag_seconds',
    );
    expect(exportedAs('tradewind_settlement_lag_seconds')).toBeUndefined();
    expect(exportedAs('tradewind_orders_placed')).toBeUndefined();
  });

  it('is a dashboard on a Prometheus chosen at import (the DS_PROMETHEUS variable)', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.uid).toBe('tradewind');
    const variable = dashboard.templating.list.find((v) => v.name === 'DS_PROMETHEUS');
    expect(variable).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(targets.length).toBeGreaterThan(0);
    for (const panel of panels.filter((p) => p.type !== 'row'))
      expect(panel.datasource?.uid, panel.title).toBe('${DS_PROMETHEUS}');
    for (const target of targets)
      expect(target.datasource?.uid, target.panel).toBe('${DS_PROMETHEUS}');
  });

  it("queries only exported metrics, and every one of the server's own", () => {
    const used = new Set<string>();
    for (const target of targets) {
      expect(target.expr?.trim(), target.panel).toBeTruthy();
      const names = metricNames(target.expr as string);
      expect(names.length, `${target.panel}: ${target.expr}`).toBeGreaterThan(0);
      for (const name of names) {
        const metric = exportedAs(name);
        expect(metric, `${target.panel}: ${name} is not an exported series`).toBeDefined();
        used.add(metric as string);
      }
    }
    const own = Object.keys(EXPORTED_METRICS).filter((name) => name.startsWith('tradewind_'));
    expect(own.filter((name) => !used.has(name))).toEqual([]);
  });
});
