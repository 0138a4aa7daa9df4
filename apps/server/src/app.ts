import { randomUUID } from 'node:crypto';
import helmet, { type HelmetOptions } from 'helmet';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import { languageFromHeader } from '@tradewind/contract/languages';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { registerAuthRoutes } from './modules/auth/routes.ts';
import { liveSessions } from './modules/auth/sessions.ts';
import { registerSignInThrottlePrune } from './modules/auth/sign-in-throttle.ts';
import { registerBankCardRoutes } from './modules/bank-card/routes.ts';
import { createContractsModule, registerSettlementWorker } from './modules/contracts/module.ts';
import { registerContractRoutes } from './modules/contracts/routes.ts';
import { registerConversionRoutes } from './modules/conversion/routes.ts';
import { registerFundsRoutes } from './modules/funds/routes.ts';
import { registerInviteRoutes } from './modules/invite/routes.ts';
import { registerCreditRoutes } from './modules/credit/routes.ts';
import { registerDashboardRoutes, registerLedgerCheckWorker } from './modules/dashboard/routes.ts';
import { registerDepositRoutes } from './modules/deposit/routes.ts';
import { registerCardDepositRoutes } from './modules/card-deposit/routes.ts';
import { registerIeoRoutes, registerIeoWorker } from './modules/ieo/routes.ts';
import { registerKycRoutes } from './modules/kyc/routes.ts';
import type { Obligation } from './modules/ledger/invariants.ts';
import { Ledger, ensureAssets } from './modules/ledger/service.ts';
import { registerLoanRoutes, registerLoanWorker } from './modules/loans/routes.ts';
import { registerMiningRoutes, registerMiningWorker } from './modules/mining/routes.ts';
import { registerMessageRoutes } from './modules/messages/routes.ts';
import { registerNewsRoutes } from './modules/news/routes.ts';
import { registerMoneyPasswordRoutes } from './modules/money-password/routes.ts';
import { registerMarketRecorder, registerMarketRoutes } from './modules/market/routes.ts';
import { registerOperatorRoutes } from './modules/operator/routes.ts';
import { registerPointsRoutes } from './modules/points/routes.ts';
import { registerTaskRoutes } from './modules/tasks/routes.ts';
import { registerShopRoutes } from './modules/shop/routes.ts';
import { antiPhishingCodeFor } from './modules/security/service.ts';
import { registerSecurityRoutes } from './modules/security/routes.ts';
import { registerSystemRoutes } from './modules/system/routes.ts';
import { registerUserAdminRoutes } from './modules/user/admin-routes.ts';
import { registerUserRoutes } from './modules/user/routes.ts';
import { registerVoteRoutes } from './modules/vote/routes.ts';
import { registerWalletRoutes } from './modules/wallet/routes.ts';
import { registerWithdrawalRoutes } from './modules/withdrawal/routes.ts';
import { LOCKED_FUND_OBLIGATIONS } from './obligations.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import { type Config, UPLOAD_BYTES_CAP } from './platform/config.ts';
import type { Database } from './platform/db.ts';
import { registerErrorHandler } from './platform/errors.ts';
import { registerHousekeepingWorker } from './platform/housekeeping.ts';
import { registerWebApp } from './platform/web-app.ts';
import { type FileStore, createFileStore } from './platform/files.ts';
import type { AppServices } from './services.ts';
import { registerFileRoutes } from './platform/files-routes.ts';
import { jsonSerializerCompiler, zodValidatorCompiler } from './platform/http.ts';
import { registerRateLimits } from './platform/rate-limits.ts';
import { Metrics, registerMetrics } from './platform/metrics.ts';
import { READINESS_FLAPS, registerConditions, watchPlatform } from './platform/conditions.ts';
import {
  Readiness,
  databaseCheck,
  migrationsCheck,
  registerReadiness,
} from './platform/shutdown.ts';
import { saneRequestId } from './platform/request-id.ts';
import { startRelayProbe } from './platform/relay-probe.ts';
import { createNotifier } from './platform/notifier.ts';
import { NatsRelay } from './platform/events/nats-relay.ts';
import { registerSharedSettingRoutes } from './modules/settings/routes.ts';
import { readSharedSettings, seedSharedSettings } from './modules/settings/service.ts';
import { LocalRelay, PgRelay, type Relay } from './platform/relay.ts';
import { fastifyTrustProxy } from './platform/trust-proxy.ts';
import { Hub, closeSocketsGoingAway, registerWebSocket } from './platform/ws.ts';
import { TICK_REFERENCES } from './tick-references.ts';

/** The headers Helmet sets for these options, read off once from a stand-in response. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, response as never, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export interface AppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Where uploads are kept; defaults to `DATA_DIR/uploads`. */
  fileStore?: FileStore;
  /** Pino options over the defaults (level, redaction, node and role on every line), or false for silence (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Run the background workers in this process (main.ts: ROLE `all` or `worker`); tests drive them directly. */
  workers?: boolean;
  /**
   * Whether this process serves sockets, and so must hear other processes' events (default
   * true; main.ts: false for ROLE `worker`, which only sends them).
   */
  sockets?: boolean;
  /** Sees every route as it is registered, whatever registers it (the route-table tests). */
  onRoute?: (route: RouteOptions) => void;
  /** The ledger check's obligations; every module's by default (a test adds a phantom one). */
  obligations?: readonly Obligation[];
  /** This app's metrics (main.ts serves them on the ops port too); a new set by default. */
  metrics?: Metrics;
}

export type { AppServices } from './services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

/**
 * Builds the HTTP application: platform first (language, errors, security headers,
 * rate limits, docs, WebSocket), then the modules, then the web app's static files.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const logger = {
    level: config.logLevel,
    redact: ['req.headers.authorization'],
    base: { pid: process.pid, node: config.nodeName, role: config.role },
  };
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : typeof options.logger === 'object'
          ? { ...logger, ...options.logger }
          : logger,
    // A sane X-Request-Id from the proxy or client is kept, so one request reads the same in
    // every node's and the proxy's logs; anything else gets a UUID (never a per-process counter).
    requestIdHeader: false,
    genReqId: (request) => saneRequestId(request.headers['x-request-id']) ?? randomUUID(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Shutting down (platform/shutdown.ts), the node has already told the load balancer it is not
    // ready and served for DRAIN_MS; a request that still arrives once it closes is served (with
    // `Connection: close`) rather than refused with a 503 the client would not retry. Idle
    // keep-alive connections are closed and in-flight requests finish.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 200 },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(jsonSerializerCompiler);
  app.decorate('routeTable', []);
  app.decorateRequest('lang', 'en');
  app.decorateRequest('auth', null);
  app.decorateRequest('operator', null);
  app.addHook('onRequest', async (request, reply) => {
    request.lang = languageFromHeader(request.headers['accept-language']);
    reply.header('x-request-id', request.id);
  });
  registerErrorHandler(app);
  const metrics = options.metrics ?? new Metrics();
  registerMetrics(app, metrics, config.metrics.token);
  const conditions = registerConditions(app);
  const readinessChangedAt: number[] = [];
  const readiness = new Readiness((ready, failing) => {
    metrics.readinessChanges.inc();
    readinessChangedAt.push(Date.now());
    if (readinessChangedAt.length > READINESS_FLAPS * 4) readinessChangedAt.shift();
    if (ready) app.log.info('ready again');
    else app.log.warn({ failing }, 'not ready');
  });
  readiness.add(databaseCheck(database.db));
  readiness.add(migrationsCheck(database));
  registerReadiness(app, readiness);
  metrics.readers.ready = async () => (await readiness.failing()).length === 0;
  if (database.poolStats) metrics.readers.dbPools = database.poolStats;

  // The chat widget, when configured, is the one outside origin allowed: its script, its frame, its API.
  const chatOrigins = config.chat
    ? [...new Set([new URL(config.chat.scriptUrl).origin, new URL(config.chat.baseUrl).origin])]
    : [];
  const securityHeaders = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...chatOrigins],
        // antd-mobile sets inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...(config.imgBaseUrl.startsWith('http') ? [new URL(config.imgBaseUrl).origin] : []),
          ...chatOrigins,
        ],
        connectSrc: ["'self'", ...chatOrigins],
        frameSrc: ["'self'", ...chatOrigins],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // The same headers on every reply, computed once: @fastify/helmet built Helmet anew for each
  // request (parsing the policy each time), 5 % of the server's CPU on bench/orders.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.raw.removeHeader('x-powered-by');
    reply.headers(securityHeaders);
    done();
  });
  if (config.rateLimit.enabled) await registerRateLimits(app, config);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tradewind API',
        version: config.version,
        description: 'Every reply is an envelope {code, message, data, errors?}.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(websocket, {
    options: { maxPayload: 8192 },
    preClose: closeSocketsGoingAway,
  });
  // Uploads: one image per request, a few short fields; the upload route checks the rest.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      // Each upload route reads the install's UPLOAD_MAX_BYTES and passes it per request.
      fileSize: UPLOAD_BYTES_CAP,
      files: 1,
      fields: 4,
      fieldSize: 256,
      parts: 6,
      headerPairs: 20,
    },
  });

  const notifier = createNotifier({
    config,
    db: database.db,
    clock,
    log: app.log,
    antiPhishingCode: (email) => antiPhishingCodeFor(database.db, email),
  });
  // Real-time events cross processes over NATS subjects when NATS_URL is set, else over
  // PostgreSQL's LISTEN/NOTIFY; PGlite is one process.
  const relay: Relay = config.nats
    ? new NatsRelay({
        servers: config.nats.url,
        prefix: config.nats.prefix,
        log: app.log,
        listen: options.sockets !== false,
      })
    : database.connectDedicated
      ? new PgRelay({
          connect: database.connectDedicated,
          log: app.log,
          listen: options.sockets !== false,
        })
      : new LocalRelay();
  app.addHook('onReady', () => relay.start());
  app.addHook('onClose', () => relay.close());
  readiness.add({
    name: 'event-bus',
    run: async () => {
      if (!relay.connected) throw new Error('event bus not connected');
    },
  });
  metrics.readers.eventBusConnected = () => relay.connected;
  startRelayProbe(app, relay, metrics);
  const hub = new Hub(relay, metrics);
  metrics.readers.wsConnections = () => hub.connections;
  metrics.readers.wsSubscriptions = () => hub.subscriptionCount;
  watchPlatform(conditions, {
    recentRequests: metrics.recentRequests,
    readinessChanges: () => readinessChangedAt,
    ...(database.poolStats ? { poolStats: database.poolStats } : {}),
    eventBusConnected: () => relay.connected,
  });
  const ledger = new Ledger();
  const fileStore = options.fileStore ?? createFileStore(config);
  await ensureAssets(database.db, { depositMinMinor: config.deposit.minDepositMinor });
  const obligations = options.obligations ?? LOCKED_FUND_OBLIGATIONS;
  await seedSharedSettings(database.db, config.sharedSeed, clock.now(), app.log);
  app.decorate('services', {
    config,
    database,
    clock,
    notifier,
    relay,
    hub,
    ledger,
    fileStore,
    obligations,
    metrics,
  });
  const deps = {
    db: database.db,
    clock,
    config,
    notifier,
    relay,
    hub,
    ledger,
    fileStore,
    obligations,
    metrics,
    tickReferences: TICK_REFERENCES,
    uploadLimits: async () => (await readSharedSettings(database.db)).uploads,
  };

  registerSystemRoutes(app, deps);
  registerAuthRoutes(app, { ...deps, log: app.log });
  registerUserRoutes(app, deps);
  registerUserAdminRoutes(app, deps);
  registerWalletRoutes(app, deps);
  registerDepositRoutes(app, deps);
  registerOperatorRoutes(app, deps);
  registerFileRoutes(app, deps);
  registerKycRoutes(app, deps);
  registerCardDepositRoutes(app, deps);
  registerMoneyPasswordRoutes(app, deps);
  registerBankCardRoutes(app, deps);
  registerWithdrawalRoutes(app, deps);
  registerMarketRoutes(app, deps);
  registerConversionRoutes(app, deps);
  registerFundsRoutes(app, deps);
  registerVoteRoutes(app, deps);
  registerPointsRoutes(app, deps);
  registerTaskRoutes(app, deps);
  registerShopRoutes(app, deps);
  registerInviteRoutes(app, deps);
  registerCreditRoutes(app, deps);
  registerSecurityRoutes(app, deps);
  registerMiningRoutes(app, deps);
  registerIeoRoutes(app, deps);
  registerLoanRoutes(app, deps);
  registerMessageRoutes(app, deps);
  registerNewsRoutes(app, deps);
  registerDashboardRoutes(app, deps);
  registerSharedSettingRoutes(app, deps);
  const contracts = createContractsModule(deps, { worker: options.workers === true, log: app.log });
  registerContractRoutes(app, deps, contracts);
  if (options.workers) {
    registerMarketRecorder(app, deps);
    if (contracts.settlement) registerSettlementWorker(app, contracts.settlement);
    registerMiningWorker(app, deps);
    registerIeoWorker(app, deps);
    registerLoanWorker(app, deps);
    registerLedgerCheckWorker(app, deps);
    registerHousekeepingWorker(app, deps);
    registerSignInThrottlePrune(app, deps);
  }
  registerWebSocket(app, hub, (ids) => liveSessions(database.db, ids, clock.now()));

  registerWebApp(app, config);
  return app;
}
