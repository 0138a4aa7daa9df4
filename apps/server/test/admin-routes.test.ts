import { OPERATOR_ROLES, type OperatorRole } from '@tradewind/contract/operator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/platform/http.ts';
import { type TestApp, call, createTestApp, operatorToken, registerUser } from './harness.ts';

/**
 * The operator API's access rules, over the whole route table, so they cover every route any
 * module adds later: no token or a user's token is 401; an operator whose role the route does
 * not admit is 403; an admitted role gets past authentication (any other answer, such as a
 * 422 for an empty body, is the route's own business). What routes may never do (write a
 * price, an outcome or a balance) is proved in honest.test.ts.
 */

const ADMIN_PREFIX = '/api/admin/v1/';
/** The one admin route anyone may call: signing in. */
/** Reached before anyone is an operator: signing in, and enrolling with a one-time code (decision 0025). */
const PUBLIC_ADMIN_ROUTES = new Set([
  'POST /api/admin/v1/auth/login',
  'POST /api/admin/v1/enrolment/start',
  'POST /api/admin/v1/enrolment/complete',
]);

let t: TestApp;
/** Every route Fastify registered, as seen by its onRoute hook (whatever registered it). */
const registered: { method: string; url: string }[] = [];
beforeAll(async () => {
  t = await createTestApp({
    onRoute: (options) => {
      for (const method of [options.method].flat()) registered.push({ method, url: options.url });
    },
  });
});
afterAll(() => t.close());

const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;
const adminRoutes = () =>
  t.app.routeTable.filter(
    (route) => route.url.startsWith(ADMIN_PREFIX) && !PUBLIC_ADMIN_ROUTES.has(key(route)),
  );

/** A concrete URL for a route pattern (`:id` → 1). */
const urlOf = (route: RouteEntry) => route.url.replace(/:\w+/g, '1');

function send(route: RouteEntry, token: string | undefined) {
  return call(t.app, route.method, urlOf(route), {
    token,
    ...(route.method === 'POST' ? { body: {} } : {}),
  });
}

/** Operators' tokens by role; a call that ends its own session (sign-out) gets a fresh one. */
const tokens = new Map<OperatorRole, string>();
async function tokenFor(role: OperatorRole): Promise<string> {
  const existing = tokens.get(role);
  if (
    existing &&
    (await call(t.app, 'GET', '/api/admin/v1/me', { token: existing })).status === 200
  )
    return existing;
  const { token } = await operatorToken(t, role);
  tokens.set(role, token);
  return token;
}

describe('the admin route table', () => {
  it('holds every /api/admin/v1 route Fastify serves, each with auth operator and its roles (login aside)', () => {
    const table = new Set(t.app.routeTable.map(key));
    const served = registered.filter(
      (route) => route.url.startsWith(ADMIN_PREFIX) && route.method !== 'HEAD',
    );
    expect(served.length).toBeGreaterThan(5);
    // A route registered around route()/fileRoute() would escape the checks below.
    expect(served.map(key).filter((k) => !table.has(k))).toEqual([]);
    for (const route of adminRoutes()) {
      expect(route.auth, key(route)).toBe('operator');
      expect(route.roles?.length, key(route)).toBeGreaterThan(0);
      for (const role of route.roles ?? []) expect(OPERATOR_ROLES, key(route)).toContain(role);
    }
  });

  it('every admin route: no token → 401, a user session → 401', async () => {
    const user = await registerUser(t.app);
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const anonymous = await send(route, undefined);
      expect([anonymous.status, anonymous.body.code], `${key(route)} without a token`).toEqual([
        401, 401,
      ]);
      const asUser = await send(route, user.token);
      expect([asUser.status, asUser.body.code], `${key(route)} with a user's token`).toEqual([
        401, 401,
      ]);
    }
  });

  it('every admin route, every role: a role not admitted → 403; an admitted role passes authentication', async () => {
    const checked: string[] = [];
    for (const route of adminRoutes()) {
      for (const role of OPERATOR_ROLES) {
        const reply = await send(route, await tokenFor(role));
        if (route.roles?.includes(role)) {
          expect([401, 403], `${key(route)} as ${role} (admitted)`).not.toContain(reply.status);
        } else {
          expect(
            [reply.status, reply.body.code],
            `${key(route)} as ${role} (not admitted)`,
          ).toEqual([403, 403]);
        }
        checked.push(`${key(route)} ${role}`);
      }
    }
    expect(checked.length).toBe(adminRoutes().length * OPERATOR_ROLES.length);
  });
});
