import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
// What `npm run check:ledger` loads: the modules, with no app built and no route registered.
import '../src/app.ts';
import { placeBatch } from '../src/modules/contracts/batcher.ts';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { Ledger, ensureAssets, externalAccount, userAccount } from '../src/modules/ledger/service.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { ensureInstruments } from '../src/modules/market/service.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { type Tx, queryRows } from '../src/platform/db.ts';
import { Hub } from '../src/platform/ws.ts';
import { T0, openTestDatabase } from './harness.ts';
import { FixedFeed } from './prices.ts';

const database = await openTestDatabase();
afterAll(() => database.close());

describe('npm run check:ledger', () => {
  it('counts open contract orders as obligations without the contract routes being registered', async () => {
    await ensureAssets(database.db);
    await ensureInstruments(database.db);
    const clock = new ManualClock(T0);
    const feed = new FixedFeed();
    feed.set({ BTCUSDT: '95000' });
    await new MarketRecorder({ db: database.db, clock, feed }).recordOnce(clock.now());

    const [user] = await queryRows<{ id: string }>(
      database.db,
      sql`insert into users (email, email_verified, password_hash, nickname, invite_code, language, created_at, updated_at)
          values ('check-ledger@example.com', true, 'not-a-password', 'check', 'C0000001', 'en', now(), now()) returning id::text`,
    );
    const userId = Number(user?.id);
    const ledger = new Ledger();
    await database.db.transaction((tx) =>
      ledger.post(tx, clock.now(), {
        kind: 'test_funding',
        reference: `test:fund:${userId}`,
        userId,
        postings: [
          { account: externalAccount('chain', 'USDT'), amount: -1_000_000_000n, type: 'deposit' },
          { account: userAccount(userId, 'futures', 'USDT'), amount: 1_000_000_000n, type: 'deposit' },
        ],
      }),
    );
    const deps = { db: database.db, clock, ledger, hub: new Hub(), maxOpenOrders: 20, isTradable: () => true };
    const request = { userId, key: 'check-ledger-order', hash: 'h', body: { symbol: 'BTCUSDT' as const, direction: 'up' as const, periodId: 1, amount: '100' }, stakeMinor: 100_000_000n, lang: 'en' as const };
    const [result] = await database.db.transaction((tx) => placeBatch(deps, tx as Tx, clock.now(), [request]));
    expect(result && 'error' in result ? result.error : null).toBeNull();

    // Stake 100 + fee 0.2 are locked by the open order, and the checker knows why.
    const [account] = await queryRows<{ locked: string }>(database.db, sql`select locked::text from ledger_accounts where name = ${`user:${userId}:futures:USDT`}`);
    expect(account?.locked).toBe('100200000');
    expect(await checkLedger(database.db)).toEqual([]);
  });
});
