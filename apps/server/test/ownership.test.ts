import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type Reply, type TestApp, call, createTestApp, registerUser } from './harness.ts';

/**
 * The ownership (BOLA) matrix: every user route that takes an object id is tried by
 * another user, who must be denied and leave the owner's object as it was. A route that
 * takes an id and has no case here fails the first test, so routes added later are
 * covered by construction.
 */

type User = Awaited<ReturnType<typeof registerUser>>;

interface OwnershipCase {
  /** Creates the owner's object and returns the request that names it. */
  arrange: (t: TestApp, owner: User) => Promise<{ body?: unknown; query?: string }>;
  /** Checks the owner's object is unchanged after the intruder's attempt. */
  unchanged: (t: TestApp, owner: User) => Promise<void>;
}

const CASES: Record<string, OwnershipCase> = {
  'POST /api/v1/auth/sessions/revoke': {
    arrange: async (t, owner) => {
      const list = await call<{ items: { id: string }[] }>(t.app, 'GET', '/api/v1/auth/sessions', { token: owner.token });
      return { body: { id: list.body.data.items[0]?.id } };
    },
    unchanged: async (t, owner) => {
      expect((await call(t.app, 'GET', '/api/v1/user/profile', { token: owner.token })).body.code).toBe(0);
    },
  },
};

function idFields(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape).filter((name) => name === 'id' || /Id$/.test(name)) : [];
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('ownership matrix over the route table', () => {
  it('every user route that takes an object id has an ownership case', () => {
    const needing = t.app.routeTable
      .filter((route) => route.auth === 'user' && (idFields(route.body).length > 0 || idFields(route.query).length > 0))
      .map((route) => `${route.method} ${route.url}`);
    expect(needing.length).toBeGreaterThan(0);
    expect(needing.filter((name) => !CASES[name])).toEqual([]);
  });

  it.each(Object.keys(CASES))('%s: another user is denied and the object is unchanged', async (name) => {
    const ownershipCase = CASES[name] as OwnershipCase;
    const [method, url] = name.split(' ') as ['GET' | 'POST', string];
    const owner = await registerUser(t.app);
    const intruder = await registerUser(t.app);
    const request = await ownershipCase.arrange(t, owner);
    const reply: Reply = await call(t.app, method, `${url}${request.query ?? ''}`, {
      token: intruder.token,
      body: request.body,
      headers: { 'idempotency-key': `bola-${Math.random().toString(36).slice(2, 12)}` },
    });
    expect(reply.body.code, JSON.stringify(reply.body)).not.toBe(0);
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(JSON.stringify(reply.body.data ?? null)).toBe('null');
    await ownershipCase.unchanged(t, owner);
  });
});
