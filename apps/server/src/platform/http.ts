import type { Readable } from 'node:stream';
import type { Envelope } from '@tradewind/contract/envelope';
import { envelopeSchema } from '@tradewind/contract/envelope';
import type { Language } from '@tradewind/contract/languages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import type { Tx } from './db.ts';
import { AppError, RequestValidationError } from './errors.ts';
import { translate } from './i18n.ts';
import {
  IDEMPOTENCY_HEADER,
  isValidIdempotencyKey,
  requestHash,
  runIdempotent,
} from './idempotency.ts';

export type AuthMode = 'none' | 'user' | 'operator';

/** A route's body, query or reply schema: the contract's (zod/mini) or a server-only one on zod classic. */
export type Schema = z.core.$ZodType;

/** Who made the request, set by the auth hook on routes that need a signed-in user. */
export interface AuthContext {
  userId: number;
  sessionId: number;
}

/** An operator (separate account with a role), on `/api/admin` routes. */
export interface OperatorAuth {
  operatorId: number;
  username: string;
  role: 'reviewer' | 'catalog' | 'admin';
  via: 'api' | 'cli';
}

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
    auth: AuthContext | null;
    operator: OperatorAuth | null;
  }
  interface FastifyInstance {
    routeTable: RouteEntry[];
    /** Resolves an Authorization header; throws UNAUTHORIZED or SESSION_EXPIRED. */
    authenticate: (authorization: string | undefined) => Promise<AuthContext>;
    /** Resolves an operator's Authorization header; throws UNAUTHORIZED or SESSION_EXPIRED. */
    authenticateOperator: (authorization: string | undefined) => Promise<OperatorAuth>;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}

/** One row per API route: what the route-table tests (bad input, ownership, "no route writes a price") walk. */
export interface RouteEntry {
  method: 'GET' | 'POST';
  url: string;
  auth: AuthMode;
  body?: Schema;
  query?: Schema;
  /** Moves money: takes an Idempotency-Key. */
  money?: boolean;
  roles?: readonly OperatorAuth['role'][];
  /** A file route: a success is this content type, not an envelope (failures still are). */
  produces?: string;
}

export interface RouteSpec<
  B extends Schema | undefined,
  Q extends Schema | undefined,
  R extends Schema,
> {
  method: 'GET' | 'POST';
  url: string;
  auth: AuthMode;
  summary: string;
  tags: string[];
  body?: B;
  query?: Q;
  response: R;
  rateLimit?: {
    max: number;
    timeWindow: number;
    keyGenerator?: (request: FastifyRequest) => string;
  };
  /** Moves money: needs an Idempotency-Key header, and the handler runs in the transaction `tx` exactly once per key. */
  money?: boolean;
  /** Operator routes: the roles allowed (others get 403). */
  roles?: readonly OperatorAuth['role'][];
  /**
   * Money routes: runs after authentication and before the transaction, on every attempt
   * (replays too). What it writes commits even when the request then fails: a wrong
   * withdrawal password must count toward the lock although the withdrawal rolls back.
   */
  precheck?: (ctx: UserHandlerContext<Infer<B>, Infer<Q>>) => Promise<void>;
  /**
   * Body fields left out of the stored idempotency hash. A password in it would let anyone
   * who reads the table test guesses offline; the precheck verifies it on every attempt.
   */
  secretFields?: readonly string[];
  /**
   * Money routes that group concurrent requests into one transaction (group commit,
   * ARCHITECTURE §9): the wrapper checks the Idempotency-Key and runs the precheck as for
   * any money route, then hands the handler the key and the request hash instead of a
   * transaction. The handler must keep `runIdempotent`'s promise itself: the key is stored
   * with the work, a replay returns the stored reply, another body with the key is refused.
   */
  ownIdempotency?: boolean;
}

type Infer<T> = T extends Schema ? z.output<T> : undefined;

export interface HandlerContext<B, Q> {
  body: B;
  query: Q;
  request: FastifyRequest;
  reply: FastifyReply;
  lang: Language;
}

export interface UserHandlerContext<B, Q> extends HandlerContext<B, Q> {
  auth: AuthContext;
}

export interface OperatorHandlerContext<B, Q> extends HandlerContext<B, Q> {
  operator: OperatorAuth;
}

export interface MoneyHandlerContext<B, Q> extends UserHandlerContext<B, Q> {
  /** The transaction holding the idempotency key: write the business row and the ledger entry in it. */
  tx: Tx;
  /** Runs `fn` once the transaction has committed (a push to the user's channel): never for a rolled-back attempt or a replay. */
  afterCommit: (fn: () => void) => void;
}

/** The Idempotency-Key of the request and the hash of its body (secret fields left out). */
export interface IdempotencyInput {
  key: string;
  hash: string;
}

export interface OwnIdempotencyHandlerContext<B, Q> extends UserHandlerContext<B, Q> {
  idempotency: IdempotencyInput;
}

/** Replies `{code: 0, message, data}` in the request's language. */
export function ok<T>(language: Language, data: T): Envelope<T> {
  return { code: 0, message: translate(language, 'ok'), data };
}

/**
 * Registers a route: validates body and query with the shared zod schemas, checks the
 * session when `auth` is `user`, and wraps what the handler returns in the envelope.
 * Routes stay thin: parse, call the service, reply.
 */
export function route<B extends Schema | undefined, Q extends Schema | undefined, R extends Schema>(
  app: FastifyInstance,
  spec: RouteSpec<B, Q, R> & { auth: 'operator'; roles: readonly OperatorAuth['role'][] },
  handler: (ctx: OperatorHandlerContext<Infer<B>, Infer<Q>>) => Promise<z.input<R>>,
): void;
export function route<B extends Schema | undefined, Q extends Schema | undefined, R extends Schema>(
  app: FastifyInstance,
  spec: RouteSpec<B, Q, R> & { auth: 'user'; money: true; ownIdempotency: true },
  handler: (ctx: OwnIdempotencyHandlerContext<Infer<B>, Infer<Q>>) => Promise<z.input<R>>,
): void;
export function route<B extends Schema | undefined, Q extends Schema | undefined, R extends Schema>(
  app: FastifyInstance,
  spec: RouteSpec<B, Q, R> & { auth: 'user'; money: true },
  handler: (ctx: MoneyHandlerContext<Infer<B>, Infer<Q>>) => Promise<z.input<R>>,
): void;
export function route<B extends Schema | undefined, Q extends Schema | undefined, R extends Schema>(
  app: FastifyInstance,
  spec: RouteSpec<B, Q, R> & { auth: 'user' },
  handler: (ctx: UserHandlerContext<Infer<B>, Infer<Q>>) => Promise<z.input<R>>,
): void;
export function route<B extends Schema | undefined, Q extends Schema | undefined, R extends Schema>(
  app: FastifyInstance,
  spec: RouteSpec<B, Q, R> & { auth: 'none' },
  handler: (ctx: HandlerContext<Infer<B>, Infer<Q>>) => Promise<z.input<R>>,
): void;
export function route<B extends Schema | undefined, Q extends Schema | undefined, R extends Schema>(
  app: FastifyInstance,
  spec: RouteSpec<B, Q, R>,
  handler: (
    ctx: MoneyHandlerContext<Infer<B>, Infer<Q>> &
      OperatorHandlerContext<Infer<B>, Infer<Q>> &
      OwnIdempotencyHandlerContext<Infer<B>, Infer<Q>>,
  ) => Promise<z.input<R>>,
): void {
  app.routeTable.push({
    method: spec.method,
    url: spec.url,
    auth: spec.auth,
    body: spec.body,
    query: spec.query,
    money: spec.money,
    roles: spec.roles,
  });
  app.route({
    method: spec.method,
    url: spec.url,
    schema: {
      summary: spec.summary,
      tags: spec.tags,
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      response: { 200: envelopeSchema(spec.response) },
      ...(spec.auth !== 'none' ? { security: [{ bearer: [] }] } : {}),
    },
    config: {
      auth: spec.auth,
      ...(spec.rateLimit ? { rateLimit: spec.rateLimit } : {}),
    },
    ...authHooks(app, spec),
    handler: async (request, reply) => {
      const ctx = {
        body: request.body as Infer<B>,
        query: request.query as Infer<Q>,
        request,
        reply,
        lang: request.lang,
        auth: request.auth as AuthContext,
        operator: request.operator as OperatorAuth,
      };
      if (!spec.money) return ok(request.lang, await handler(ctx as Parameters<typeof handler>[0]));
      const key = request.headers[IDEMPOTENCY_HEADER];
      if (!isValidIdempotencyKey(key))
        throw new AppError('IDEMPOTENCY_KEY_REQUIRED', {}, 422, 'Idempotency-Key');
      if (spec.precheck)
        await spec.precheck(ctx as Parameters<NonNullable<typeof spec.precheck>>[0]);
      const { database, clock } = app.services;
      const hashed = spec.secretFields
        ? withoutFields(request.body, spec.secretFields)
        : request.body;
      const hash = requestHash(spec.method, spec.url, hashed);
      if (spec.ownIdempotency)
        return ok(
          request.lang,
          await handler({ ...ctx, idempotency: { key, hash } } as Parameters<typeof handler>[0]),
        );
      const committed: (() => void)[] = [];
      const data = await runIdempotent(
        { db: database.db, clock },
        { userId: ctx.auth.userId, key, hash },
        (tx) => {
          committed.length = 0; // a retried attempt starts over
          return handler({
            ...ctx,
            tx,
            afterCommit: (fn: () => void) => void committed.push(fn),
          } as unknown as Parameters<typeof handler>[0]);
        },
      );
      for (const fn of committed) fn();
      return ok(request.lang, data);
    },
  });
}

function withoutFields(body: unknown, fields: readonly string[]): unknown {
  if (!body || typeof body !== 'object') return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => !fields.includes(key)));
}

/** The auth step of `route`, for routes that reply with something other than an envelope (file bytes). */
export function preHandlerFor(
  app: FastifyInstance,
  spec: { auth: AuthMode; roles?: readonly OperatorAuth['role'][] },
) {
  if (spec.auth === 'user')
    return async (request: FastifyRequest) =>
      void (request.auth = await app.authenticate(request.headers.authorization));
  if (spec.auth === 'operator') {
    return async (request: FastifyRequest) => {
      const operator = await app.authenticateOperator(request.headers.authorization);
      if (!spec.roles?.includes(operator.role)) throw new AppError('FORBIDDEN');
      request.operator = operator;
    };
  }
  return undefined;
}

/**
 * Where the auth step runs. Operator routes authenticate before validation (`preValidation`):
 * a request without an operator's session, or from a role the route does not admit, is
 * refused as such (401/403) and never learns what the route's input looks like. User routes
 * validate first, as they always have: a malformed request costs no session lookup.
 */
export function authHooks(
  app: FastifyInstance,
  spec: { auth: AuthMode; roles?: readonly OperatorAuth['role'][] },
) {
  const hook = preHandlerFor(app, spec);
  if (!hook) return {};
  return spec.auth === 'operator' ? { preValidation: hook } : { preHandler: hook };
}

/** What a file route's handler returns: sent as is, as an attachment; a stream is piped as it is read. */
export interface FileReply {
  filename: string;
  contentType: string;
  body: Uint8Array | Readable;
}

export interface FileRouteSpec<Q extends Schema | undefined> {
  method: 'GET';
  url: string;
  auth: 'user';
  summary: string;
  tags: string[];
  query?: Q;
  /** The content type of a success (spec §7: spreadsheet types pass through the client as files). */
  produces: string;
  rateLimit?: RouteSpec<undefined, Q, Schema>['rateLimit'];
}

/**
 * A signed-in GET that answers a file (an export) instead of an envelope. Validation,
 * authentication and failures are the same as `route`: a refused request is an envelope.
 */
export function fileRoute<Q extends Schema | undefined>(
  app: FastifyInstance,
  spec: FileRouteSpec<Q>,
  handler: (ctx: UserHandlerContext<undefined, Infer<Q>>) => Promise<FileReply>,
): void {
  app.routeTable.push({
    method: spec.method,
    url: spec.url,
    auth: spec.auth,
    query: spec.query,
    produces: spec.produces,
  });
  app.route({
    method: spec.method,
    url: spec.url,
    schema: {
      summary: spec.summary,
      tags: spec.tags,
      ...(spec.query ? { querystring: spec.query } : {}),
      security: [{ bearer: [] }],
    },
    config: { auth: spec.auth, ...(spec.rateLimit ? { rateLimit: spec.rateLimit } : {}) },
    ...authHooks(app, spec),
    handler: async (request, reply) => {
      const file = await handler({
        body: undefined,
        query: request.query as Infer<Q>,
        request,
        reply,
        lang: request.lang,
        auth: request.auth as AuthContext,
      });
      const filename = file.filename.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(
          file.body instanceof Uint8Array
            ? Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength)
            : file.body,
        );
    },
  });
}

/** Validation with the shared schemas; failures carry their issues to the error handler. */
export function zodValidatorCompiler({ schema }: { schema: unknown }) {
  const zodSchema = schema as Schema;
  return (data: unknown) => {
    const nul = nulCharacterPaths(data);
    if (nul.length > 0)
      return {
        error: new RequestValidationError(
          nul.map((path) => ({
            code: 'custom',
            path,
            message: 'validation.invalid_format',
            input: undefined,
          })),
          data,
        ),
      };
    const result = z.safeParse(zodSchema, data);
    return result.success
      ? { value: result.data }
      : { error: new RequestValidationError(result.error.issues, data) };
  };
}

/**
 * Where the input holds a U+0000 character. PostgreSQL text cannot store one, so a field
 * carrying it would fail in the query as a 500 (a search, a sign-in, an operator's reason):
 * every route refuses it here as a field error instead, whatever its schema says.
 */
function nulCharacterPaths(data: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  if (typeof data === 'string') return data.includes('\u0000') ? [path] : [];
  if (typeof data !== 'object' || data === null) return [];
  return Object.entries(data).flatMap(([key, value]) => [
    ...(key.includes('\u0000') ? [[...path, key]] : []),
    ...nulCharacterPaths(value, [...path, key]),
  ]);
}

/** Replies are built from our own types; serialise them as they are (the schema documents them). */
export function jsonSerializerCompiler() {
  return (data: unknown) => JSON.stringify(data);
}
