import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import {
  type IeoApplication,
  type IeoDetail,
  type IeoProject,
  IeoStatus,
  allocate,
  boundedProgress,
} from '@tradewind/contract/ieo';
import type { FundsPage } from '@tradewind/contract/funds';
import type { Balances } from '@tradewind/contract/wallet';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { runAllocation, runDueIeo } from '../src/modules/ieo/service.ts';
import { seedDemoIeo } from '../src/modules/demo/ieo-projects.ts';
import type { OpsContext } from '../src/modules/operator/ops-commands.ts';
import { OPS_COMMANDS } from '../src/ops-commands.ts';
import { findOperator } from '../src/modules/operator/service.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorToken,
  registerUser,
} from './harness.ts';

/** Launchpad (spec /IEO, /IEOHis; IEO status codes 0–8; ARCHITECTURE §5 money through the ledger). */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const USDT = 1_000_000n;

/* The allocation rule, as a pure function */

const apps = (...rows: [string, bigint, bigint][]) =>
  rows.map(([id, quantity, amount]) => ({ id, quantity, amount }));
const quantities = (result: { id: string; quantity: bigint }[]) =>
  Object.fromEntries(result.map((r) => [r.id, r.quantity]));

describe('allocation rule (table)', () => {
  it.each([
    {
      name: 'under-subscribed: everyone gets what they asked for, the rest stays unsold',
      input: {
        supply: 1000n,
        perUserCap: 500n,
        applications: apps(['a', 100n, 100n], ['b', 200n, 400n]),
      },
      expected: { a: 100n, b: 200n },
    },
    {
      name: 'exactly subscribed: everyone gets what they asked for',
      input: {
        supply: 300n,
        perUserCap: 500n,
        applications: apps(['a', 100n, 100n], ['b', 200n, 200n]),
      },
      expected: { a: 100n, b: 200n },
    },
    {
      name: 'over-subscribed at one price: pro rata to committed amounts',
      input: {
        supply: 100n,
        perUserCap: 1000n,
        applications: apps(['a', 100n, 100n], ['b', 300n, 300n]),
      },
      expected: { a: 25n, b: 75n },
    },
    {
      name: 'over-subscribed with different offers: weight is the committed USDT, not the quantity',
      input: {
        supply: 100n,
        perUserCap: 1000n,
        applications: apps(['a', 100n, 200n], ['b', 100n, 600n]),
      },
      expected: { a: 25n, b: 75n },
    },
    {
      name: 'per-user cap limits a large application and its excess goes to the others',
      input: {
        supply: 100n,
        perUserCap: 40n,
        applications: apps(['a', 1000n, 1000n], ['b', 100n, 100n], ['c', 100n, 100n]),
      },
      expected: { a: 40n, b: 30n, c: 30n },
    },
    {
      name: 'the cap applies to everyone: capped requests that fit leave the rest unsold',
      input: {
        supply: 100n,
        perUserCap: 30n,
        applications: apps(['a', 1000n, 1000n], ['b', 100n, 100n], ['c', 100n, 100n]),
      },
      expected: { a: 30n, b: 30n, c: 30n },
    },
    {
      name: 'a small application that fits is filled and the rest is shared again',
      input: {
        supply: 100n,
        perUserCap: 1000n,
        applications: apps(['a', 5n, 500n], ['b', 200n, 200n], ['c', 200n, 200n]),
      },
      expected: { a: 5n, b: 48n, c: 47n },
    },
    {
      name: 'rounding floors every share; leftover whole tokens go to the largest remainders, earlier first on a tie',
      input: {
        supply: 10n,
        perUserCap: 100n,
        applications: apps(['a', 10n, 10n], ['b', 10n, 10n], ['c', 10n, 10n]),
      },
      expected: { a: 4n, b: 3n, c: 3n },
    },
    {
      name: 'a cap below the request applies even when under-subscribed',
      input: { supply: 1000n, perUserCap: 50n, applications: apps(['a', 80n, 80n]) },
      expected: { a: 50n },
    },
    {
      name: 'no applications: nothing allocated',
      input: { supply: 1000n, perUserCap: 50n, applications: [] },
      expected: {},
    },
  ])('$name', ({ input, expected }) => {
    expect(quantities(allocate(input))).toEqual(expected);
  });

  it('progress is bounded 0–100 (spec §9)', () => {
    expect(boundedProgress(0n, 100n)).toBe(0);
    expect(boundedProgress(37n, 100n)).toBe(37);
    expect(boundedProgress(1n, 3n)).toBe(33.33);
    expect(boundedProgress(500n, 100n)).toBe(100);
    expect(boundedProgress(5n, 0n)).toBe(0);
  });
});

describe('allocation rule (property)', () => {
  const application = fc.record({
    quantity: fc.bigInt({ min: 1n, max: 10_000n }),
    price: fc.bigInt({ min: 1n, max: 5_000n }),
  });
  it('never exceeds the supply, a cap or a request; fills the supply when over-subscribed; everyone else is fully served', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 50_000n }),
        fc.bigInt({ min: 1n, max: 20_000n }),
        fc.array(application, { maxLength: 40 }),
        (supply, perUserCap, list) => {
          const applications = list.map((a, i) => ({
            id: String(i),
            quantity: a.quantity,
            amount: a.quantity * a.price,
          }));
          const result = allocate({ supply, perUserCap, applications });
          expect(result.map((r) => r.id)).toEqual(applications.map((a) => a.id));
          const total = result.reduce((s, r) => s + r.quantity, 0n);
          expect(total <= supply).toBe(true);
          const limits = applications.map((a) =>
            a.quantity < perUserCap ? a.quantity : perUserCap,
          );
          result.forEach((r, i) => {
            const app = applications[i] as (typeof applications)[number];
            expect(r.quantity >= 0n && r.quantity <= (limits[i] as bigint)).toBe(true);
            // What is not paid for is returned: payment plus refund is exactly the commitment.
            const paid = r.quantity * (app.amount / app.quantity);
            expect(paid <= app.amount).toBe(true);
            expect(app.amount - paid + paid).toBe(app.amount);
          });
          const wanted = limits.reduce((s, l) => s + l, 0n);
          // Remainders are redistributed: nothing is left unsold while someone still wants it.
          expect(total).toBe(wanted < supply ? wanted : supply);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/* The service, through the API */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

/** An operator call with a fresh catalog session (tests move the clock past the idle timeout). */
async function admin<T = unknown>(action: string, body: unknown) {
  const { token } = await operatorToken(t, 'catalog');
  return call<T>(t.app, 'POST', `/api/admin/v1/ieo/${action}`, { token, body });
}
afterEach(async () => {
  expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof registerUser>>;
let tokenCounter = 0;

const at = (ms: number) => new Date(ms).toISOString();

/** Creates a project through the operator API, subscribing from now for a day, listing two days after. */
async function createProject(overrides: Record<string, unknown> = {}) {
  tokenCounter += 1;
  const now = t.clock.now().getTime();
  const body = {
    slug: `test-${tokenCounter}-${now}`,
    token: `TK${tokenCounter}${String(now % 1000).padStart(3, '0')}`.slice(0, 10),
    tokenName: `Token ${tokenCounter}`,
    name: { en: `Project ${tokenCounter}`, de: `Projekt ${tokenCounter}` },
    description: { en: 'A test project' },
    supply: '1000',
    unitPrice: '1',
    priceMin: '0.5',
    priceMax: '2',
    perUserCap: '600',
    startsAt: at(now - HOUR),
    endsAt: at(now + DAY),
    listsAt: at(now + 2 * DAY),
    announcedAt: at(now - 2 * HOUR),
    ...overrides,
  };
  const reply = await admin<IeoProject>('create', body);
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return reply.body.data;
}

async function verifiedUser(usdt = 1_000n): Promise<User> {
  const user = await registerUser(t.app);
  await t.database.db.execute(sql`update users set verified = true where id = ${Number(user.uid)}`);
  if (usdt > 0n) await fund(t, Number(user.uid), usdt * USDT);
  return user;
}

const subscribe = (user: User, projectId: string, price: string, quantity: string, lang?: string) =>
  call<IeoApplication>(t.app, 'POST', '/api/v1/ieo/subscribe', {
    token: user.token,
    lang,
    headers: { 'idempotency-key': idempotencyKey() },
    body: { projectId, price, quantity },
  });

async function spot(user: User, asset = 'USDT') {
  const reply = await call<Balances>(t.app, 'GET', '/api/v1/wallet/balances', {
    token: user.token,
  });
  const row = reply.body.data.spot.find((b) => b.asset === asset);
  return { available: row?.available ?? '0', locked: row?.locked ?? '0' };
}

const detail = async (user: User, id: string, lang?: string) =>
  (await call<IeoDetail>(t.app, 'GET', `/api/v1/ieo/detail?id=${id}`, { token: user.token, lang }))
    .body.data;
const history = async (user: User) =>
  (
    await call<{ items: IeoApplication[] }>(t.app, 'GET', '/api/v1/ieo/applications', {
      token: user.token,
    })
  ).body.data.items;
const applicationCount = async (projectId: string) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from ieo_applications where project_id = ${Number(projectId)}`,
      )
    )[0]?.n,
  );

describe('projects', () => {
  it('creating a project adds its token as an asset, and its status follows the clock: not started → subscribing → drawing', async () => {
    const now = t.clock.now().getTime();
    const project = await createProject({
      startsAt: at(now + HOUR),
      endsAt: at(now + 2 * HOUR),
      listsAt: at(now + 3 * HOUR),
    });
    expect(project.status).toBe(IeoStatus.NOT_STARTED);
    const assets = await queryRows<{ code: string; scale: number }>(
      t.database.db,
      sql`select code, scale from assets where code = ${project.token}`,
    );
    expect(assets).toEqual([{ code: project.token, scale: 0 }]);
    const user = await verifiedUser(0n);
    t.clock.advance(HOUR);
    expect((await detail(user, project.id)).project.status).toBe(IeoStatus.SUBSCRIBING);
    t.clock.advance(HOUR);
    expect((await detail(user, project.id)).project.status).toBe(IeoStatus.DRAWING);
    const audit = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where target_type = 'ieo_project' and target_id = ${project.id}`,
    );
    expect(audit.map((a) => a.action)).toEqual(['ieo.create']);
  });

  it('texts come in the request language, English where missing; a token code in use is refused', async () => {
    const project = await createProject();
    const user = await verifiedUser(0n);
    const de = await detail(user, project.id, 'de');
    expect(de.project.name).toMatch(/^Projekt /);
    expect(de.project.description).toBe('A test project');
    const input = {
      slug: 'another-slug',
      token: project.token,
      tokenName: 'x',
      name: { en: 'x' },
      description: { en: 'x' },
      supply: '1',
      unitPrice: '1',
      priceMin: '1',
      priceMax: '1',
      perUserCap: '1',
      startsAt: project.startsAt,
      endsAt: project.endsAt,
      listsAt: project.listsAt,
      announcedAt: project.announcedAt,
    };
    expect((await admin('create', input)).body.code).toBe(3356);
    expect((await admin('create', { ...input, slug: 'usdt-again', token: 'USDT' })).body.code).toBe(
      3356,
    );
    const projects = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ieo_projects where slug in ('another-slug', 'usdt-again')`,
    );
    expect(projects[0]?.n).toBe(0);
  });

  it('the demo seed creates three projects in different statuses, in seven languages, and seeding twice adds nothing', async () => {
    await seedDemoIeo({ db: t.database.db, ledger: t.app.services.ledger }, t.clock.now());
    await seedDemoIeo({ db: t.database.db, ledger: t.app.services.ledger }, t.clock.now());
    const user = await verifiedUser(0n);
    const items = (
      await call<{ items: IeoProject[] }>(t.app, 'GET', '/api/v1/ieo/projects', {
        token: user.token,
        lang: 'zh_TW',
      })
    ).body.data.items;
    const demo = items.filter((p) => ['NOVA', 'TIDE', 'ORBT'].includes(p.token));
    expect(demo.map((p) => [p.token, p.status]).sort()).toEqual([
      ['NOVA', IeoStatus.SUBSCRIBING],
      ['ORBT', IeoStatus.ENDED],
      ['TIDE', IeoStatus.NOT_STARTED],
    ]);
    expect(demo.find((p) => p.token === 'NOVA')?.name).toBe('Nova Grid（示範）');
    // Subscribing projects come first.
    expect(items[0]?.status).toBe(IeoStatus.SUBSCRIBING);
  });
});

describe('subscribing', () => {
  it('locks offer price × quantity in spot USDT through the ledger and shows progress', async () => {
    const project = await createProject();
    const user = await verifiedUser(1_000n);
    const reply = await subscribe(user, project.id, '1.5', '200');
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    expect(reply.body.data).toMatchObject({
      status: IeoStatus.APPLYING,
      price: '1.5',
      quantity: '200',
      amount: '300',
      allocatedQuantity: null,
    });
    expect(await spot(user)).toEqual({ available: '700', locked: '300' });
    const seen = await detail(user, project.id);
    expect(seen.project).toMatchObject({ subscribed: '200', progress: 20 });
    expect(seen.application?.id).toBe(reply.body.data.id);
    const funds = await call<FundsPage>(t.app, 'GET', '/api/v1/funds/postings?type=ieo', {
      token: user.token,
    });
    expect(funds.body.data.items.map((p) => [p.type, p.bucket, p.amount]).sort()).toEqual([
      ['ieo', 'available', '-300'],
      ['ieo', 'locked', '300'],
    ]);
  });

  it('KYC required: an unverified user is refused and nothing changes', async () => {
    const project = await createProject();
    const user = await registerUser(t.app);
    await fund(t, Number(user.uid), 100n * USDT);
    const reply = await subscribe(user, project.id, '1', '10', 'de');
    expect(reply.body.code).toBe(2310);
    expect(reply.status).toBe(403);
    expect(await spot(user)).toEqual({ available: '100', locked: '0' });
    expect(await applicationCount(project.id)).toBe(0);
  });

  it.each([
    {
      name: 'price below the range',
      price: '0.4',
      quantity: '10',
      field: 'price',
      de: 'Der Gebotspreis muss zwischen 0.5 und 2 USDT liegen.',
    },
    {
      name: 'price above the range',
      price: '2.01',
      quantity: '10',
      field: 'price',
      de: 'Der Gebotspreis muss zwischen 0.5 und 2 USDT liegen.',
    },
    {
      name: 'quantity over the cap',
      price: '1',
      quantity: '601',
      field: 'quantity',
      de: 'Sie können höchstens 600 Token zeichnen.',
    },
    {
      name: 'a fractional quantity',
      price: '1',
      quantity: '1.5',
      field: 'quantity',
      de: 'Geben Sie eine ganze Anzahl Token ein.',
    },
    {
      name: 'more USDT decimals than exist',
      price: '1.0000001',
      quantity: '1',
      field: 'price',
      de: 'Der Gebotspreis muss zwischen 0.5 und 2 USDT liegen.',
    },
  ])('bad input ($name) → localized error, no change', async ({ price, quantity, field, de }) => {
    const project = await createProject();
    const user = await verifiedUser(100n);
    const reply = await subscribe(user, project.id, price, quantity, 'de');
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.[field]).toEqual([de]);
    expect(reply.body.message).toBe(de);
    expect(await spot(user)).toEqual({ available: '100', locked: '0' });
    expect(await applicationCount(project.id)).toBe(0);
  });

  it('more than the balance → insufficient balance, no change; a second application → refused', async () => {
    const project = await createProject();
    const user = await verifiedUser(100n);
    const poor = await subscribe(user, project.id, '1', '101');
    expect(poor.body.code).not.toBe(0);
    expect(await applicationCount(project.id)).toBe(0);
    expect((await subscribe(user, project.id, '1', '50')).body.code).toBe(0);
    const second = await subscribe(user, project.id, '1', '10', 'fr');
    expect(second.body).toMatchObject({
      code: 3354,
      message: 'Vous avez déjà souscrit à ce projet.',
    });
    expect(await spot(user)).toEqual({ available: '50', locked: '50' });
  });

  it('outside the subscription period → refused, no change', async () => {
    const now = t.clock.now().getTime();
    const project = await createProject({
      startsAt: at(now + HOUR),
      endsAt: at(now + 2 * HOUR),
      listsAt: at(now + 3 * HOUR),
    });
    const user = await verifiedUser(100n);
    expect((await subscribe(user, project.id, '1', '10')).body.code).toBe(3351);
    t.clock.advance(2 * HOUR);
    expect((await subscribe(user, project.id, '1', '10', 'es')).body).toMatchObject({
      code: 3351,
      message: 'Este proyecto no está abierto a suscripción.',
    });
    expect((await subscribe(user, '999999', '1', '10')).body.code).toBe(3350);
    expect(await spot(user)).toEqual({ available: '100', locked: '0' });
  });
});

describe('lifecycle (clock-driven)', () => {
  it('subscribe → allocate at the end → list → tokens in spot; payment and refund are IEO ledger entries', async () => {
    const project = await createProject({ supply: '1000', perUserCap: '600' });
    const alice = await verifiedUser(2_000n);
    const bob = await verifiedUser(2_000n);
    const carol = await verifiedUser(2_000n);
    expect((await subscribe(alice, project.id, '1', '600')).body.code).toBe(0); // 600 USDT
    expect((await subscribe(bob, project.id, '2', '600')).body.code).toBe(0); // 1200 USDT
    expect((await subscribe(carol, project.id, '1', '200')).body.code).toBe(0); // 200 USDT
    expect((await detail(alice, project.id)).project.progress).toBe(100);

    // Before the end the job does nothing.
    const due = () =>
      runDueIeo({ db: t.database.db, ledger: t.app.services.ledger }, t.clock.now());
    expect((await due()).allocated).not.toContain(Number(project.id));
    expect((await detail(alice, project.id)).application?.status).toBe(IeoStatus.APPLYING);
    t.clock.advance(DAY);
    expect((await detail(alice, project.id)).project.status).toBe(IeoStatus.DRAWING);
    expect((await due()).allocated).toContain(Number(project.id));

    // Weights 600 : 1200 : 200 of 1000 tokens → 300, 600, 100 (all within the cap of 600).
    const a = (await detail(alice, project.id)).application as IeoApplication;
    const b = (await detail(bob, project.id)).application as IeoApplication;
    const c = (await detail(carol, project.id)).application as IeoApplication;
    expect(a).toMatchObject({
      status: IeoStatus.APPLIED,
      allocatedQuantity: '300',
      allocatedPrice: '1',
      paidAmount: '300',
      remainingAmount: '300',
      allocatedAt: t.clock.now().toISOString(),
    });
    expect(b).toMatchObject({
      allocatedQuantity: '600',
      allocatedPrice: '2',
      paidAmount: '1200',
      remainingAmount: '0',
    });
    expect(c).toMatchObject({
      allocatedQuantity: '100',
      paidAmount: '100',
      remainingAmount: '100',
    });
    expect(await spot(alice)).toEqual({ available: '1700', locked: '0' });
    expect(await spot(bob)).toEqual({ available: '800', locked: '0' });
    expect((await detail(alice, project.id)).project.status).toBe(IeoStatus.IN_PROGRESS);
    expect(await spot(alice, project.token)).toEqual({ available: '0', locked: '0' });

    // At the listing time the tokens arrive in spot as a new asset.
    t.clock.advance(DAY);
    expect((await due()).listed).toContain(Number(project.id));
    expect(await spot(alice, project.token)).toEqual({ available: '300', locked: '0' });
    expect(await spot(bob, project.token)).toEqual({ available: '600', locked: '0' });
    expect(await spot(carol, project.token)).toEqual({ available: '100', locked: '0' });
    expect((await detail(alice, project.id)).project.status).toBe(IeoStatus.ENDED);
    expect((await history(alice)).find((h) => h.projectId === project.id)?.status).toBe(
      IeoStatus.COMPLETED,
    );
    // The house holds what users paid and has issued the tokens it sold.
    const house = await queryRows<{ name: string; available: string }>(
      t.database.db,
      sql`select name, available::text from ledger_accounts where name in (${`house:ieo:${project.token}`})`,
    );
    expect(house).toEqual([{ name: `house:ieo:${project.token}`, available: '-1000' }]);

    const funds = await call<FundsPage>(t.app, 'GET', '/api/v1/funds/postings?type=ieo', {
      token: alice.token,
    });
    expect(funds.body.data.items.map((p) => [p.asset, p.bucket, p.amount])).toEqual([
      [project.token, 'available', '300'],
      ['USDT', 'available', '300'],
      ['USDT', 'locked', '-600'],
      ['USDT', 'locked', '600'],
      ['USDT', 'available', '-600'],
    ]);

    // Running the jobs again changes nothing.
    expect(await due()).toEqual({ allocated: [], listed: [] });
    expect(await spot(alice, project.token)).toEqual({ available: '300', locked: '0' });
  });

  it('operators run allocation and listing through the API, not before their time, audit-logged', async () => {
    const project = await createProject();
    const user = await verifiedUser(100n);
    expect((await subscribe(user, project.id, '1', '100')).body.code).toBe(0);
    const early = await admin('allocate', { id: project.id });
    expect(early.body.code).toBe(3357);
    t.clock.advance(DAY);
    const listEarly = await admin('list', { id: project.id });
    expect(listEarly.body.code).toBe(3357);
    const ran = await admin<{ ran: boolean; project: IeoProject }>('allocate', { id: project.id });
    expect(ran.body.data).toMatchObject({ ran: true, project: { status: IeoStatus.IN_PROGRESS } });
    t.clock.advance(DAY);
    const listed = await admin<{ ran: boolean; project: IeoProject }>('list', { id: project.id });
    expect(listed.body.data).toMatchObject({ ran: true, project: { status: IeoStatus.ENDED } });
    expect(await spot(user, project.token)).toEqual({ available: '100', locked: '0' });
    const audit = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where target_type = 'ieo_project' and target_id = ${project.id} order by id`,
    );
    expect(audit.map((r) => r.action)).toEqual(['ieo.create', 'ieo.allocate', 'ieo.list']);
    // A user cannot call operator routes.
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/ieo/allocate', {
          token: user.token,
          body: { id: project.id },
        })
      ).status,
    ).toBe(401);
  });

  it('concurrent allocation runs → exactly one allocation', async () => {
    const project = await createProject({ supply: '10' });
    const users = await Promise.all([verifiedUser(100n), verifiedUser(100n), verifiedUser(100n)]);
    for (const user of users)
      expect((await subscribe(user, project.id, '1', '10')).body.code).toBe(0);
    t.clock.advance(DAY);
    const deps = { db: t.database.db, ledger: t.app.services.ledger };
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () =>
        runAllocation(deps, t.clock.now(), Number(project.id), null),
      ),
      ...Array.from({ length: 2 }, () =>
        admin<{ ran: boolean }>('allocate', { id: project.id }).then((r) => r.body.data),
      ),
      runDueIeo(deps, t.clock.now()).then((r) => ({
        ran: r.allocated.includes(Number(project.id)),
      })),
    ]);
    expect(results.filter((r) => r.ran)).toHaveLength(1);
    const entries = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ledger_entries where kind = 'ieo_allocation' and user_id in (${sql.join(
        users.map((u) => Number(u.uid)),
        sql`, `,
      )})`,
    );
    expect(entries[0]?.n).toBe(3);
    const allocated = await Promise.all(
      users.map(async (u) => (await detail(u, project.id)).application?.allocatedQuantity),
    );
    expect(allocated).toEqual(['4', '3', '3']);
  });
});

describe('cancellation', () => {
  it('a cancelled project refunds everything, shows the reason, and can no longer be subscribed or allocated', async () => {
    const project = await createProject();
    const alice = await verifiedUser(500n);
    const bob = await verifiedUser(500n);
    expect((await subscribe(alice, project.id, '1', '100')).body.code).toBe(0);
    expect((await subscribe(bob, project.id, '2', '200')).body.code).toBe(0);
    expect(await spot(bob)).toEqual({ available: '100', locked: '400' });
    const cancelled = await admin<IeoProject>('cancel', {
      id: project.id,
      reason: 'The issuer withdrew.',
    });
    expect(cancelled.body.data).toMatchObject({
      status: IeoStatus.CANCELLED,
      cancelReason: 'The issuer withdrew.',
    });
    expect(await spot(alice)).toEqual({ available: '500', locked: '0' });
    expect(await spot(bob)).toEqual({ available: '500', locked: '0' });
    expect((await detail(bob, project.id)).application?.status).toBe(IeoStatus.CANCELLED);
    const carol = await verifiedUser(100n);
    expect((await subscribe(carol, project.id, '1', '1')).body.code).toBe(3351);
    t.clock.advance(DAY);
    expect((await admin('allocate', { id: project.id })).body.code).toBe(3355);
    expect((await admin('cancel', { id: project.id, reason: 'again' })).body.code).toBe(3355);
    const funds = await call<FundsPage>(t.app, 'GET', '/api/v1/funds/postings?type=ieo', {
      token: bob.token,
    });
    expect(funds.body.data.items[0]).toMatchObject({
      memo: 'The issuer withdrew.',
      amount: '400',
      bucket: 'available',
    });
  });

  it('a project cannot be cancelled after its allocation; editing is only before the start', async () => {
    const now = t.clock.now().getTime();
    const upcoming = await createProject({
      startsAt: at(now + HOUR),
      endsAt: at(now + 2 * HOUR),
      listsAt: at(now + 3 * HOUR),
    });
    const edited = await admin<IeoProject>('edit', {
      id: upcoming.id,
      supply: '5000',
      priceMax: '3',
    });
    expect(edited.body.data).toMatchObject({ supply: '5000', priceMax: '3' });
    const bad = await admin('edit', { id: upcoming.id, priceMin: '4' });
    expect(bad.body.code).toBe(3358);
    const open = await createProject();
    expect((await admin('edit', { id: open.id, supply: '1' })).body.code).toBe(3355);
    t.clock.advance(DAY);
    expect((await admin('allocate', { id: open.id })).body.code).toBe(0);
    expect((await admin('cancel', { id: open.id, reason: 'late' })).body.code).toBe(3355);
  });
});

describe('history (/IEOHis)', () => {
  it("lists only the user's own applications, newest first", async () => {
    const p1 = await createProject();
    const p2 = await createProject();
    const user = await verifiedUser(100n);
    const other = await verifiedUser(100n);
    expect((await subscribe(user, p1.id, '1', '10')).body.code).toBe(0);
    expect((await subscribe(user, p2.id, '1', '20')).body.code).toBe(0);
    expect((await subscribe(other, p1.id, '1', '30')).body.code).toBe(0);
    const items = await history(user);
    expect(items.map((i) => [i.projectId, i.quantity])).toEqual([
      [p2.id, '20'],
      [p1.id, '10'],
    ]);
    expect((await call(t.app, 'GET', '/api/v1/ieo/applications')).status).toBe(401);
  });
});

describe('npm run ops: ieo commands', () => {
  const run = async (name: string, options: Record<string, string | undefined>) => {
    const command = OPS_COMMANDS.get(name);
    if (!command) throw new Error(`${name} is not registered`);
    const operator = options.operator
      ? await findOperator(t.database.db, options.operator)
      : undefined;
    const context: OpsContext = { ...t.app.services, db: t.database.db, operator, args: [] };
    return command.run(context, options);
  };

  it('lists, allocates and lists the token through the same rules, audit-logged as cli', async () => {
    const project = await createProject();
    const user = await verifiedUser(100n);
    expect((await subscribe(user, project.id, '1', '30')).body.code).toBe(0);
    const { username } = await operatorToken(t, 'catalog');
    expect(await run('ieo:list', {})).toContain(
      `#${project.id} ${project.token} status ${IeoStatus.SUBSCRIBING}`,
    );
    await expect(run('ieo:allocate', { id: project.id })).rejects.toThrow('--operator');
    await expect(run('ieo:allocate', { id: project.id, operator: username })).rejects.toThrow(
      'IEO_NOT_DUE',
    );
    t.clock.advance(DAY);
    expect(await run('ieo:allocate', { id: project.id, operator: username })).toBe(
      `project #${project.id} allocated`,
    );
    expect(await run('ieo:allocate', { id: project.id, operator: username })).toBe(
      `project #${project.id} was already allocated`,
    );
    t.clock.advance(DAY);
    expect(await run('ieo:list-token', { id: project.id, operator: username })).toBe(
      `project #${project.id} listed; tokens credited`,
    );
    expect(await spot(user, project.token)).toEqual({ available: '30', locked: '0' });
    const entries = await queryRows<{ action: string; via: string }>(
      t.database.db,
      sql`select action, via from audit_log where target_type = 'ieo_project' and target_id = ${project.id} order by id`,
    );
    expect(entries).toEqual([
      { action: 'ieo.create', via: 'api' },
      { action: 'ieo.allocate', via: 'cli' },
      { action: 'ieo.list', via: 'cli' },
    ]);
  });

  it('cancels with a reason from the shell, refunding every application', async () => {
    const project = await createProject();
    const user = await verifiedUser(100n);
    expect((await subscribe(user, project.id, '2', '10')).body.code).toBe(0);
    const { username } = await operatorToken(t, 'catalog');
    await expect(run('ieo:cancel', { id: project.id, operator: username })).rejects.toThrow(
      '--reason',
    );
    expect(
      await run('ieo:cancel', { id: project.id, reason: 'Issuer withdrew', operator: username }),
    ).toContain('cancelled');
    expect(await spot(user)).toEqual({ available: '100', locked: '0' });
  });
});
