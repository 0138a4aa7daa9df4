import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickReferenceColumns } from '../src/modules/market/tick-references.ts';
import { TICK_REFERENCES } from '../src/tick-references.ts';
import { OPS_COMMANDS } from '../src/ops-commands.ts';
import { findOperator } from '../src/modules/operator/service.ts';
import { queryRows } from '../src/platform/db.ts';
import { placed, recordAt, settlement, trader } from './contracts.ts';
import { type TestApp, call, createTestApp, idempotencyKey, operatorToken } from './harness.ts';

/**
 * Honest by construction (ARCHITECTURE §1): prices are recorded, never authored; outcomes
 * are computed, never chosen. Two proofs over the whole server:
 *
 * 1. statically, only the market recorder inserts ticks, nothing updates or deletes them,
 *    and only the settlement worker writes an order's result;
 * 2. dynamically, every route of the route table (as nobody, a user, and operators of every
 *    role) and every operator command, called with generated and hostile inputs that name
 *    real ticks, orders and outcomes, leaves every tick and every order's result as it was,
 *    while orders are due and waiting for settlement.
 */

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Files (relative to src/) whose code matches any pattern. */
function writers(patterns: RegExp[]): string[] {
  return sourceFiles(SRC)
    .filter((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return patterns.some((pattern) => pattern.test(text));
    })
    .map((file) => path.relative(SRC, file))
    .sort();
}

/** Words no input field may contain: an input naming one of these could author a price, an outcome or a balance. */
const FORBIDDEN_WORDS = new Set([
  'price',
  'prices',
  'tick',
  'ticks',
  'outcome',
  'result',
  'won',
  'win',
  'winner',
  'balance',
  'balances',
  'available',
  'payout',
]);

/**
 * The only fields allowed to carry such a word, each with why it is not a market price,
 * an outcome or a balance. Keep this list tiny: a new entry needs the same kind of reason.
 */
const ALLOWED_FIELDS: { url: RegExp; fields: string[]; reason: string }[] = [
  {
    url: /^\/api\/admin\/v1\/(ieo|mining)\//,
    fields: ['unitPrice', 'priceMin', 'priceMax'],
    reason:
      "a product's published terms (an IEO token's issue price and range, a miner's rental price), set by catalog operators before anyone buys; no instrument's price",
  },
  {
    url: /^\/api\/v1\/ieo\/subscribe$/,
    fields: ['price'],
    reason:
      "the price a user offers for an IEO subscription, checked against the project's published range",
  },
  {
    url: /^\/api\/admin\/v1\/contracts\/periods$/,
    fields: ['payoutRatePpm'],
    reason:
      "a contract period's published payout rate for orders placed after the change (placed orders keep the rate they were placed with); it sets terms, never an outcome",
  },
  {
    url: /^\/api\/v1\/contracts\/orders$/,
    fields: ['payoutRate'],
    reason:
      "the period's payout rate as the user was shown it: compared with the period's own, and the order refused if they differ; it never sets a rate",
  },
];

/** Every field name a request schema accepts, through objects, unions, pipes, wrappers and arrays. */
function inputFields(schema: unknown, depth = 0): string[] {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def || depth > 8) return [];
  const inner = (value: unknown) => inputFields(value, depth + 1);
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([name, value]) => [
        name,
        ...inner(value),
      ]);
    case 'union':
      return (def.options as unknown[]).flatMap(inner);
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    case 'pipe':
      return [...inner(def.in), ...inner(def.out)];
    case 'array':
      return inner(def.element);
    case 'record':
      return inner(def.valueType);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return inner(def.innerType);
    default:
      return [];
  }
}

/** A plausible value for a schema (the first of an enum, "1" for a string…): gets requests past the simplest checks. */
function plausible(schema: unknown, depth = 0): unknown {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def || depth > 8) return '1';
  switch (def.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, unknown>).map(([name, value]) => [
          name,
          plausible(value, depth + 1),
        ]),
      );
    case 'union':
      return plausible((def.options as unknown[])[0], depth + 1);
    case 'pipe':
      return plausible(def.in, depth + 1);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return plausible(def.innerType, depth + 1);
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'number':
    case 'int':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      return '1';
  }
}

describe('statically: who can write prices and results', () => {
  it('only the market recorder inserts ticks (and prunes old unreferenced ones); no code updates one', () => {
    // Drizzle on the `ticks` table (under any name imported from market/tables), or raw SQL.
    const aliases = new Set(['ticks']);
    for (const file of sourceFiles(SRC)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /import\s*\{([^}]*)\}\s*from\s*'[^']*market\/tables(?:\.ts)?'/g,
      )) {
        for (const name of (match[1] ?? '').split(',')) {
          const alias = /ticks\s+as\s+(\w+)/.exec(name)?.[1];
          if (alias) aliases.add(alias);
        }
      }
    }
    const names = [...aliases].join('|');
    expect(
      writers([new RegExp(`\\.insert\\(\\s*(${names})\\s*\\)`), /insert\s+into\s+"?market_ticks/i]),
    ).toEqual(['modules/market/recorder.ts']);
    expect(
      writers([
        new RegExp(`\\.update\\(\\s*(${names})\\s*\\)`),
        /(update|truncate)\s+"?market_ticks/i,
      ]),
    ).toEqual([]);
    // The retention prune: only ticks nothing refers to (an order's open and close ticks are kept).
    expect(
      writers([new RegExp(`\\.delete\\(\\s*(${names})\\s*\\)`), /delete\s+from\s+"?market_ticks/i]),
    ).toEqual(['modules/market/recorder.ts']);
  });

  it('only the settlement worker updates contract orders, only placement inserts them, and nothing deletes them', () => {
    expect(writers([/\.update\(\s*contractOrders\s*\)/, /update\s+"?contract_orders/i])).toEqual([
      'modules/contracts/settlement.ts',
    ]);
    expect(
      writers([/\.insert\(\s*contractOrders\s*\)/, /insert\s+into\s+"?contract_orders/i]),
    ).toEqual(['modules/contracts/batcher.ts']);
    expect(
      writers([
        /\.delete\(\s*contractOrders\s*\)/,
        /(delete\s+from|truncate)\s+"?contract_orders/i,
      ]),
    ).toEqual([]);
  });

  it('no route takes a price, a tick, an outcome or a balance as input (the words, in any body or query)', () => {
    const offenders: string[] = [];
    for (const route of t.app.routeTable) {
      for (const field of [...inputFields(route.body), ...inputFields(route.query)]) {
        const words = field
          .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
          .toLowerCase()
          .split(/[\s_]+/);
        if (!words.some((word) => FORBIDDEN_WORDS.has(word))) continue;
        if (
          ALLOWED_FIELDS.some(
            (allowed) => allowed.url.test(route.url) && allowed.fields.includes(field),
          )
        )
          continue;
        offenders.push(`${route.method} ${route.url}: ${field}`);
      }
    }
    expect(offenders).toEqual([]);
    // The check sees through the schemas (a route whose fields it could not read would pass unseen).
    const fields = new Set(t.app.routeTable.flatMap((route) => inputFields(route.body)));
    for (const known of ['decision', 'reason', 'amount', 'unitPrice', 'price', 'mode'])
      expect(fields, known).toContain(known);
  });

  it('there is no override: no code names a forced or chosen outcome, or sets a literal win or loss', () => {
    // `outcome: 'win'` or `outcome = 'win'` in code (not an SQL comparison such as `c.outcome = 'win'`):
    // outcomes only ever come from outcomeOf() on two recorded prices.
    const literal = /(?<![.\w])outcome\s*(:|=(?!=))\s*['"](win|loss)['"]/;
    expect(
      writers([/(force|override|rig|fixed|manual)_?(outcome|result|win|loss|price)/i, literal]),
    ).toEqual([]);
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Everything a dishonest path could change: every tick, and every order's terms and result. */
async function fingerprint() {
  const [ticks] = await queryRows<{ n: string; digest: string }>(
    t.database.db,
    sql`select count(*)::text as n, md5(coalesce(string_agg(concat_ws('|', id, instrument, ts, price_minor, source), ',' order by id), '')) as digest from market_ticks`,
  );
  const orders = await queryRows<{ id: string; row: string }>(
    t.database.db,
    sql`select id::text, concat_ws('|', user_id, instrument, direction, period_seconds, payout_rate_ppm, stake_minor, fee_minor, open_tick_id, open_price_minor,
                                    created_at, deliver_at, state, outcome, close_tick_id, close_price_minor, payout_minor, settled_at) as row
        from contract_orders order by id`,
  );
  return { ticks, orders: new Map(orders.map((o) => [o.id, o.row])) };
}

describe('an order keeps its proof', () => {
  it('tick retention never prunes a tick an order names (its open and close ticks)', async () => {
    // Declared by the contracts module and handed to the recorder, not only found as foreign keys.
    expect(TICK_REFERENCES).toEqual(
      expect.arrayContaining([
        { table: 'contract_orders', column: 'open_tick_id' },
        { table: 'contract_orders', column: 'close_tick_id' },
      ]),
    );
    expect(await tickReferenceColumns(t.database.db, TICK_REFERENCES)).toEqual(
      expect.arrayContaining([
        { table: 'contract_orders', column: 'open_tick_id' },
        { table: 'contract_orders', column: 'close_tick_id' },
      ]),
    );
  });
});

describe('dynamically: no route and no operator command writes a price or a result', () => {
  it('every route, as anyone, with hostile inputs naming real ticks and orders, changes no tick and no result', async () => {
    // Orders in every state: settled (win and loss), open, and due but not yet settled.
    const user = await trader(t, '5000');
    const start = Math.floor(t.clock.now().getTime() / 1000) * 1000 + 1000;
    await recordAt(t, start, { BTCUSDT: '95000.00', ETHUSDT: '3300.00' });
    const early = [
      await placed(t, user.token, { direction: 'up' }),
      await placed(t, user.token, { direction: 'down' }),
    ];
    await recordAt(t, start + 30_000, { BTCUSDT: '95100.00', ETHUSDT: '3301.00' });
    await settlement(t).settleDue();
    const late = [
      await placed(t, user.token, { symbol: 'ETHUSDT', periodId: 1 }),
      await placed(t, user.token, { symbol: 'ETHUSDT', periodId: 4 }),
    ];
    await recordAt(t, start + 60_000, { BTCUSDT: '95200.00', ETHUSDT: '3290.00' });
    // The first of `late` is now due and waits for settlement, which no route may perform.
    const orders = [...early, ...late];
    const [tick] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select max(id)::text as id from market_ticks`,
    );

    const tokens = {
      none: undefined,
      user: user.token,
      reviewer: (await operatorToken(t, 'reviewer')).token,
      catalog: (await operatorToken(t, 'catalog')).token,
      admin: (await operatorToken(t, 'admin')).token,
    };
    const value = fc.oneof(
      fc.constantFrom(
        ...orders.flatMap((o) => [o.id, o.publicId, Number(o.id)]),
        tick?.id ?? '1',
        'win',
        'loss',
        'tie',
        'void',
        'settled',
        'BTCUSDT',
        '1',
        '95000.00',
        '1000000',
        'up',
        'down',
        true,
        null,
        new Date(start + 30_000).toISOString(),
      ),
      fc.string({ maxLength: 12 }),
      fc.integer(),
    );
    const HOSTILE_FIELDS = [
      'id',
      'orderId',
      'publicId',
      'tickId',
      'closeTickId',
      'outcome',
      'result',
      'price',
      'closePrice',
      'payout',
      'state',
      'symbol',
      'instrument',
      'ts',
      'direction',
      'winner',
    ];
    const fieldsOf = (schema: unknown) =>
      Object.keys((schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});

    const before = await fingerprint();
    let calls = 0;
    for (const route of t.app.routeTable) {
      const fields = [
        ...new Set([...fieldsOf(route.body), ...fieldsOf(route.query), ...HOSTILE_FIELDS]),
      ];
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 6 }),
          fc.constantFrom(...(Object.keys(tokens) as (keyof typeof tokens)[])),
          async (input, who) => {
            const token = tokens[who];
            const isGet = route.method === 'GET';
            const query = isGet
              ? `?${new URLSearchParams(Object.entries(input).map(([k, v]): [string, string] => [k, String(v)]))}`
              : '';
            await t.app.inject({
              method: route.method,
              url: `${route.url}${query}`,
              headers: {
                'content-type': 'application/json',
                'idempotency-key': idempotencyKey(),
                ...(token ? { authorization: `Bearer ${token}` } : {}),
              },
              payload: isGet ? undefined : JSON.stringify(input),
            });
            calls += 1;
          },
        ),
        { numRuns: 25, seed: 20261122 },
      );
    }
    expect(calls).toBeGreaterThan(t.app.routeTable.length * 20);

    // Operator commands (npm run ops), with hostile options, as an admin.
    const admin = await findOperator(t.database.db, (await operatorToken(t, 'admin')).username);
    for (const [name, command] of OPS_COMMANDS) {
      for (const options of [
        {},
        { id: orders[2]?.id, outcome: 'win', price: '1', reason: 'x' },
        { id: orders[0]?.id, status: 'settled', 'tick-id': tick?.id },
      ]) {
        await command
          .run({ ...t.app.services, db: t.database.db, operator: admin, args: [] }, options)
          .catch(() => name);
      }
    }

    const after = await fingerprint();
    expect(after.ticks).toEqual(before.ticks);
    // Every order that existed is exactly as it was (the due one is still open), and any order a
    // generated request happened to place is open, with no result.
    for (const [id, row] of before.orders) expect(after.orders.get(id), `order ${id}`).toBe(row);
    const placedByFuzz = [...after.orders.keys()].filter((id) => !before.orders.has(id));
    for (const id of placedByFuzz) {
      const [row] = await queryRows<{ state: string; outcome: string | null }>(
        t.database.db,
        sql`select state, outcome from contract_orders where id = ${Number(id)}`,
      );
      expect(row).toEqual({ state: 'open', outcome: null });
    }
    const [due] = await queryRows<{ state: string }>(
      t.database.db,
      sql`select state from contract_orders where id = ${Number(late[0]?.id)}`,
    );
    expect(due?.state).toBe('open');
    // Only the worker settles it, by the rule (ETH fell: up loses).
    await settlement(t).settleDue();
    const [settled] = await queryRows<{ outcome: string }>(
      t.database.db,
      sql`select outcome from contract_orders where id = ${Number(late[0]?.id)}`,
    );
    expect(settled?.outcome).toBe('loss');
  }, 120_000);
});

/** Every balance, every posting: what no operator action may change outside a decision that moves money by the ledger. */
async function balances() {
  const [row] = await queryRows<{ digest: string; postings: string }>(
    t.database.db,
    sql`select md5(coalesce(string_agg(concat_ws('|', id, name, available, locked), ',' order by id), '')) as digest, (select count(*) from ledger_postings)::text as postings from ledger_accounts`,
  );
  return row;
}

describe('never: no operator route writes a price, a result or a balance', () => {
  it('every admin POST route, as an admin, with an empty and a plausible body, leaves every tick, every result and every balance as it was', async () => {
    const admin = { token: (await operatorToken(t, 'admin')).token };
    const posts = t.app.routeTable.filter(
      (route) =>
        route.method === 'POST' &&
        route.url.startsWith('/api/admin/v1/') &&
        route.auth === 'operator',
    );
    expect(posts.length).toBeGreaterThan(5);
    const before = { ...(await fingerprint()), balances: await balances() };
    const answers: string[] = [];
    for (const route of posts) {
      for (const body of [{}, route.body ? plausible(route.body) : {}]) {
        const reply = await call(t.app, 'POST', route.url, { token: admin.token, body });
        // APPROVAL_NOT_ALLOWED (3720) is the two-person rule refusing the walk's own earlier
        // request (a reward budget change), an answer past authentication, not a role refusal.
        const status = (reply.body as { code?: number }).code === 3720 ? 409 : reply.status;
        expect([401, 403], `${route.url} as admin`).not.toContain(status);
        answers.push(`${route.url} ${reply.status}`);
        // Signing out ends the session; the walk goes on with a new one.
        if ((await call(t.app, 'GET', '/api/admin/v1/me', { token: admin.token })).status !== 200)
          admin.token = (await operatorToken(t, 'admin')).token;
      }
    }
    expect(answers).toHaveLength(posts.length * 2);
    const after = { ...(await fingerprint()), balances: await balances() };
    expect(after.ticks).toEqual(before.ticks);
    expect([...after.orders]).toEqual([...before.orders]);
    expect(after.balances).toEqual(before.balances);
  });
});
