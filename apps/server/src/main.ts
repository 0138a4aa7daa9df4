import { buildApp } from './app.ts';
import { ConfigError, applicationName, loadConfig } from './platform/config.ts';
import { seedDemo } from './modules/demo/seed.ts';
import { createChainAdapter, depositXpub } from './modules/deposit/service.ts';
import { startDepositWorker } from './modules/deposit/watcher.ts';
import { startAdminChannel } from './modules/operator/admin-channel.ts';
import { OPS_COMMANDS } from './ops-commands.ts';
import { type DataLock, DataDirInUseError, acquireDataLock } from './platform/data-lock.ts';
import { describeMigrations, openDatabase } from './platform/db.ts';
import { drainWait } from './platform/shutdown.ts';
import { startOpsServer } from './platform/metrics.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // PGlite is one process's: a second one on the same directory would corrupt it.
  let dataLock: DataLock | undefined;
  try {
    dataLock = config.databaseUrl ? undefined : acquireDataLock(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.db.poolMax,
    pipelinePoolSize: config.db.pipelinePoolMax,
    applicationName: applicationName(config),
  });
  if (config.migrateOnStart) {
    await database.migrate();
  } else {
    // A fleet migrates once before it rolls (`npm run migrate`); a node that finds the schema
    // behind its code stops rather than run queries against tables that are not there yet.
    const pending = await database.pendingMigrations();
    if (pending.length > 0) {
      console.error(
        `MIGRATE_ON_START=false and the database lacks migrations (${describeMigrations(pending)}): run \`npm run migrate\` against it, then start the server`,
      );
      await database.close();
      process.exit(1);
    }
  }
  const app = await buildApp({
    config,
    database,
    workers: config.role !== 'api',
    sockets: config.role !== 'worker',
  });
  if (dataLock?.takenOverFrom)
    app.log.warn(
      `removed a stale lock on ${config.dataDir} from process ${dataLock.takenOverFrom}, which is no longer running`,
    );
  if (config.demoMode) {
    await seedDemo({
      db: database.db,
      clock: app.services.clock,
      ledger: app.services.ledger,
      fileStore: app.services.fileStore,
    });
    app.log.warn(
      'DEMO_MODE is on: simulated data, and verification codes are readable at /api/v1/dev/outbox. Set DEMO_MODE=false in production.',
    );
    // On PostgreSQL demo mode is never the default (config.ts): someone turned it on, so say it loudly at every start.
    if (database.kind === 'postgres') {
      app.log.error(
        "DEMO_MODE=true on PostgreSQL: anyone can read any address's verification codes at /api/v1/dev/outbox and credit simulated deposits. Never run it where real people sign up.",
      );
    }
  }
  if (database.kind === 'pglite') {
    app.log.warn(
      `Embedded PGlite database in ${config.dataDir} (fsync off): for trying Tradewind. Real money belongs on PostgreSQL (DATABASE_URL).`,
    );
  }

  // Background work runs where ROLE is all or worker; any number of workers may run.
  const services = app.services;
  const depositWorker =
    config.role === 'api'
      ? undefined
      : startDepositWorker(
          {
            db: database.db,
            clock: services.clock,
            config,
            ledger: services.ledger,
            hub: services.hub,
            log: app.log,
            chain: createChainAdapter(config, database.db, services.clock),
            onRound: (ok) => services.metrics.jobRound('deposits', ok),
          },
          config.deposit.watchIntervalMs,
        );

  if (!depositXpub(config))
    app.log.warn(
      "Crypto deposits are unavailable: set TRON_XPUB to the account xpub at m/44'/195'/0'.",
    );

  let adminChannel: Awaited<ReturnType<typeof startAdminChannel>>;
  let opsServer: Awaited<ReturnType<typeof startOpsServer>> | undefined;
  let closing = false;
  let drain: ReturnType<typeof drainWait> | undefined;
  // SIGTERM (a rolling restart): not ready at once, serving on for DRAIN_MS while the load
  // balancer moves traffic to the other nodes, then the listener closes, in-flight requests
  // finish within SHUTDOWN_TIMEOUT_MS and sockets close with 1001 (platform/shutdown.ts).
  /** Stops the process in order; `exitCode` 1 when it stops because something it needs failed. */
  const shutdown = async (signal: string, exitCode = 0) => {
    if (closing) {
      drain?.cut();
      return;
    }
    closing = true;
    app.readiness.drain();
    // A worker takes no traffic: no load balancer has anything to move away from it.
    const drainMs = config.role === 'worker' ? 0 : config.drainMs;
    app.log.info(
      { signal, drainMs },
      drainMs > 0
        ? 'shutting down: not ready, serving until the drain ends (a second signal ends it now)'
        : 'shutting down',
    );
    drain = drainWait(drainMs);
    await drain.done;
    if (drainMs > 0) app.log.info('drained: closing the listener');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await adminChannel?.close();
      await opsServer?.close();
      await depositWorker?.stop();
      await app.close();
      await database.close();
      dataLock?.release();
      process.exit(exitCode);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (config.role !== 'worker') {
    await app.listen({ port: config.port, host: config.host });
  } else {
    // No API: becoming ready starts the workers, which keep the process alive until a signal.
    await app.ready();
  }
  // The ops port: a worker's only HTTP (WORKER_PORT), an API node's when METRICS_PORT is set.
  const opsPort = config.role === 'worker' ? config.workerPort : config.metrics.port;
  if (opsPort !== undefined && !closing) {
    try {
      opsServer = await startOpsServer(app, services.metrics, opsPort, config.host);
      app.log.info({ port: opsServer.port }, 'ops port: /api/health, /api/ready and /metrics');
    } catch (error) {
      const name = config.role === 'worker' ? 'WORKER_PORT' : 'METRICS_PORT';
      const chosen = config.settings.find((setting) => setting.name === name)?.fromEnv === true;
      const problem = `${name} ${opsPort} could not be opened (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      // A port someone chose must work; the default may be taken by a second worker on the
      // same host, which then runs without probes or metrics rather than not at all.
      if (chosen) {
        app.log.error(`${problem}: choose a free port`);
        await shutdown('ops port', 1);
        return;
      }
      app.log.error(
        `${problem}: this worker runs without health, readiness or metrics; set ${name} to a free port (0 picks one)`,
      );
    }
  }
  // `npm run ops` on this machine runs its commands here, against this process's state.
  if (!closing) adminChannel = await startAdminChannel(app, OPS_COMMANDS);
}

await main();
