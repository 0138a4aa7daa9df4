import crypto from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config.ts';
import { AppError } from './errors.ts';
import { awaitRedis, closeRedis, connectRedis } from './redis.ts';
import { isRenderRequest } from './rendered-home.ts';

const MINUTE_MS = 60_000;

/** Demo-only routes answer a person trying the product, not a script: a low per-address limit. */
export const DEV_ROUTE_PER_MINUTE = 30;

/**
 * Requests with an unknown token (401) one address may send a minute. Past it, that address's
 * requests with a token wait too: without this, a new made-up token a request would be a new
 * per-token budget every time.
 */
export const UNKNOWN_TOKENS_PER_MINUTE = 30;

/**
 * Counters kept per key: every address and signed-in device seen in the last minute fits.
 * The plugin's default (5,000) would let a crowd of addresses push each other's counts out.
 */
const COUNTER_CACHE = 100_000;

/**
 * Only the API is limited. Static files (hashed assets, icons, manifest, service worker,
 * offline page), pages and the image host never count: a first visit fetches about 200 of
 * them, and a limit that counted them broke the app for everyone behind one address (an
 * office, a carrier's NAT). The socket has limits of its own (ws.ts); Home's own render
 * (rendered-home.ts) asks in-process; a liveness probe is never refused.
 */
export function isLimited(request: FastifyRequest): boolean {
  return (
    request.url.startsWith('/api/') && !UNLIMITED.has(request.url) && !isRenderRequest(request)
  );
}

/** A load balancer's liveness and readiness probes must never be told to wait: it would take the node out. */
const UNLIMITED = new Set(['/api/health', '/api/ready']);

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return undefined;
  const token = header.slice(7).trim();
  return token === '' ? undefined : token;
}

/** A counter's key for a token: its hash, so the counters (in memory or Redis) hold no secret. */
const tokenKey = (token: string) =>
  crypto.createHash('sha256').update(token).digest('base64url').slice(0, 22);

interface LimitResult {
  isAllowed: boolean;
  isExceeded?: boolean;
  ttlInSeconds?: number;
}

function refuse(reply: FastifyReply, result: LimitResult): AppError {
  reply.header('retry-after', String(Math.max(1, result.ttlInSeconds ?? 60)));
  return new AppError('RATE_LIMITED');
}

/**
 * The API's limits (ARCHITECTURE §8):
 *
 * - every API request counts once against a budget of `RATE_LIMIT_PER_MINUTE`: a signed-in
 *   device's own (by its token), or its address's when it sends none; so people behind one
 *   address do not share a budget once they have signed in;
 * - routes with a limit of their own (sign-in, codes, money) count again against it: per
 *   address on anonymous routes (sign-in also per account: auth/sign-in-throttle.ts), per
 *   user on signed-in ones (the check runs after authentication);
 * - unknown tokens are counted per address (`UNKNOWN_TOKENS_PER_MINUTE`).
 *
 * A refusal is a 429 envelope with `Retry-After`, in the request's language.
 *
 * The counters live in this process's memory, or in Redis when `REDIS_URL` is set, where every
 * node counts against the same budgets (the plugin's own Redis store: one atomic script per
 * count). Should Redis not answer, a request goes through uncounted rather than fail
 * (decision 0028): the per-account sign-in throttle lives in the database and still holds.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  const redis = config.redis ? connectRedis(config.redis.url, app.log) : undefined;
  if (redis) {
    app.addHook('onReady', async () => {
      if (!(await awaitRedis(redis)))
        app.log.warn('redis: not reachable at start; rate limits count nothing until it is');
    });
    app.addHook('onClose', () => closeRedis(redis));
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis && config.redis
      ? { redis, nameSpace: `${config.redis.prefix}:rate:`, skipOnError: true }
      : {}),
    // After the route's authentication: a signed-in route's own limit is per user.
    hook: 'preHandler',
    cache: COUNTER_CACHE,
    keyGenerator: (request) =>
      request.auth
        ? `user:${request.auth.userId}`
        : request.operator
          ? `operator:${request.operator.operatorId}`
          : `ip:${request.ip}`,
  });
  const perMinute = { max: config.rateLimit.perMinute, timeWindow: MINUTE_MS };
  const byAddress = app.createRateLimit({
    ...perMinute,
    keyGenerator: (request) => `ip:${request.ip}`,
  });
  const byToken = app.createRateLimit({
    ...perMinute,
    keyGenerator: (request) => `token:${tokenKey(bearerToken(request) ?? '')}`,
  });
  const unknownTokens = app.createRateLimit({
    max: UNKNOWN_TOKENS_PER_MINUTE,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `unknown-token:${request.ip}`,
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!isLimited(request)) return;
    const token = bearerToken(request);
    if (token !== undefined) {
      const unknown = await unknownTokens(request, { increment: false });
      if (!unknown.isAllowed && unknown.isExceeded) throw refuse(reply, unknown);
    }
    const result = token === undefined ? await byAddress(request) : await byToken(request);
    if (!result.isAllowed && result.isExceeded) throw refuse(reply, result);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 401 && isLimited(request) && bearerToken(request) !== undefined)
      await unknownTokens(request);
  });
}
