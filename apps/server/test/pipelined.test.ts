import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type Executor,
  type NamedStatement,
  pipelinedTransaction,
  queryRows,
  runNamed,
} from '../src/platform/db.ts';
import { type TestApp, createTestApp } from './harness.ts';

/** `pipelinedTransaction` (platform/db.ts): one transaction whose statements go out without waiting for each other. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.execute(sql`create table pipelined_probe (n int4 not null)`);
});
afterAll(() => t.close());

const INSERT: NamedStatement = {
  name: 'test_pipelined_insert',
  text: 'insert into pipelined_probe (n) values ($1::int4)',
};
const COUNT: NamedStatement = {
  name: 'test_pipelined_count',
  text: 'select count(*)::int4 as n from pipelined_probe',
};
const rows = async () =>
  Number(
    (
      await queryRows<{ n: string }>(
        t.database.db,
        sql`select count(*)::text as n from pipelined_probe`,
      )
    )[0]?.n,
  );

/** A read, then two writes returned unawaited; the second write is `failing` if given. */
const work = (failing?: string) => async (tx: Executor) => {
  const [read] = await runNamed<{ n: number }>(tx, COUNT, []);
  const second = failing
    ? runNamed(tx, { name: 'test_pipelined_failing', text: failing }, [])
    : runNamed(tx, INSERT, [2]);
  return { value: read?.n, writes: Promise.all([runNamed(tx, INSERT, [1]), second]) };
};

describe('pipelined transactions', () => {
  it('commits the writes returned unawaited, and returns the value', async () => {
    expect(await pipelinedTransaction(t.database.db, work())).toBe(0);
    expect(await rows()).toBe(2);
  });

  it('a write that fails after COMMIT was sent: nothing of the transaction is kept, and its own error is thrown', async () => {
    const before = await rows();
    await expect(pipelinedTransaction(t.database.db, work('select 1 / 0'))).rejects.toThrow(
      /division by zero/,
    );
    expect(await rows()).toBe(before);
  });

  it('work that throws with statements still in flight: rolled back, and the connections are clean for the next', async () => {
    const before = await rows();
    const broken = pipelinedTransaction(t.database.db, async (tx) => {
      void runNamed(tx, INSERT, [3]).catch(() => undefined);
      throw new Error('the batch failed');
    });
    await expect(broken).rejects.toThrow('the batch failed');
    expect(await rows()).toBe(before);
    // Every connection of the pool afterwards: none is left inside a transaction.
    for (let i = 0; i < 6; i++)
      expect(await pipelinedTransaction(t.database.db, work())).toBe(before + 2 * i);
    expect(await rows()).toBe(before + 12);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'on PostgreSQL: BEGIN goes out with the first statements, and COMMIT right behind the writes',
    async () => {
      // Each statement a pipeline-mode connection is asked, with how many it had answered then.
      const sent: { text: string; answeredBefore: number }[] = [];
      const answered = new WeakMap<object, number>();
      const query = pg.Client.prototype.query;
      const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const result = (query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
        if (!this.pipeline) return result;
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
        sent.push({
          text: text.split(' ').slice(0, 2).join(' '),
          answeredBefore: answered.get(this) ?? 0,
        });
        void result
          .finally(() => answered.set(this, (answered.get(this) ?? 0) + 1))
          .catch(() => undefined);
        return result;
      } as typeof query);
      try {
        await pipelinedTransaction(t.database.db, work());
      } finally {
        spy.mockRestore();
      }
      const first = sent[0]?.answeredBefore ?? 0;
      expect(sent.map((s) => [s.text, s.answeredBefore - first])).toEqual([
        ['begin', 0],
        ['select count(*)::int4', 0],
        ['insert into', 2],
        ['insert into', 2],
        ['commit', 2],
      ]);
    },
  );
});
