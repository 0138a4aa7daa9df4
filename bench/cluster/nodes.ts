// The processes of bench/cluster: API nodes and a worker on one PostgreSQL, Redis and NATS,
// each started, stopped, killed and started again the way a supervisor does it, on the same
// port every time (the load balancer's target does not move).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ServerProcess, freePort, spawnServer } from '../lib/harness.ts';

/** A restarted node that is not ready within this long is a failure, not a slow boot. */
const BOOT_DEADLINE_MS = 120_000;
/** A node that has not exited this long after SIGTERM is killed (DRAIN_MS + SHUTDOWN_TIMEOUT_MS fit well inside). */
const STOP_DEADLINE_MS = 30_000;

export interface ClusterEnv {
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
  /** REDIS_KEY_PREFIX and NATS_SUBJECT_PREFIX: the run's own, so runs sharing the servers stay apart. */
  prefix: string;
  drainMs: number;
}

export class ClusterProcess {
  private current: ServerProcess | null = null;
  /** Each process its own: the admin socket lives there (uploads are not part of the traffic). */
  private readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-cluster-'));

  private constructor(
    readonly name: string,
    readonly role: 'api' | 'worker',
    readonly port: number,
    private readonly cluster: ClusterEnv,
  ) {}

  static async create(
    name: string,
    role: 'api' | 'worker',
    cluster: ClusterEnv,
  ): Promise<ClusterProcess> {
    return new ClusterProcess(name, role, await freePort(), cluster);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    const child = this.current?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** Starts the process; resolves once it is spawned, not once it is ready. */
  async spawn(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    const { databaseUrl, redisUrl, natsUrl, prefix, drainMs } = this.cluster;
    this.current = await spawnServer(databaseUrl, {
      ROLE: this.role,
      // Any free port for the worker's probes: nothing here scrapes them.
      WORKER_PORT: '0',
      PORT: String(this.port),
      DATA_DIR: this.dataDir,
      // The fleet migrated once before it started (`npm run migrate`); a node never does.
      MIGRATE_ON_START: 'false',
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix,
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: prefix,
      DRAIN_MS: String(drainMs),
      // Limits on and counted in Redis, as a cluster runs, but set past what the bench sends:
      // every request comes from 127.0.0.1 and a refusal for volume is not under test.
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_PER_MINUTE: '10000000',
      WS_MAX_PER_ADDRESS: '100000',
      WS_MAX_NEW_PER_MINUTE: '1000000',
      // One configuration for every node: the first to start seeds the install's value. With
      // 5 s orders a user holds more than the default 20 open while the worker is down.
      CONTRACT_MAX_OPEN_ORDERS: '1000',
      LOG_LEVEL: 'error',
    });
  }

  /** Resolves once `/api/ready` answers 200; throws if the process exits or the deadline passes. */
  async waitReady(): Promise<void> {
    const deadline = performance.now() + BOOT_DEADLINE_MS;
    while (performance.now() < deadline) {
      if (!this.running) throw new Error(`${this.name} exited while starting (${this.exitStatus})`);
      const status = await fetch(`${this.baseUrl}/api/ready`, {
        signal: AbortSignal.timeout(2_000),
      }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} was not ready within ${BOOT_DEADLINE_MS / 1000} s`);
  }

  /** SIGTERM, then waits for the exit; returns the exit code (or signal). */
  async stop(): Promise<number | string> {
    const current = this.current;
    if (!current) return 'not started';
    const deadline = setTimeout(() => current.child.kill('SIGKILL'), STOP_DEADLINE_MS);
    await current.stop();
    clearTimeout(deadline);
    return this.exitStatus;
  }

  /** SIGKILL, as on a crash or an out-of-memory kill; waits for the exit. */
  async kill(): Promise<void> {
    await this.current?.kill();
  }

  get exitStatus(): number | string {
    const child = this.current?.child;
    return child?.exitCode ?? child?.signalCode ?? 'running';
  }

  /** Last resort (the bench itself failed or was interrupted): no drain, no wait. */
  killNow(): void {
    if (this.running) this.current?.child.kill('SIGKILL');
  }

  removeDataDir(): void {
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
