import crypto from 'node:crypto';
import type { AssetCode } from '@tradewind/contract/wallet';
import pg from 'pg';
import { hashToken } from '../../apps/server/src/modules/auth/sessions.ts';
import {
  Ledger,
  externalAccount,
  userAccount,
} from '../../apps/server/src/modules/ledger/service.ts';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import { BENCH_PASSWORD, registerUser } from './harness.ts';

export interface Trader {
  uid: number;
  token: string;
}

export interface Funding {
  wallet: 'spot' | 'futures';
  asset: AssetCode;
  amountMinor: bigint;
}

/** The trading password every bench trader has (spec §5: set before the first order, sent with each). */
export const TRADE_PIN = '480316';

/**
 * Traders for a benchmark against a running server: one registers through the API and sets
 * its trading password there; the rest are copies of it made directly in the database
 * (argon2 for thousands would take minutes), KYC passed, with the same trading password, each
 * with its own session and every `fundings` balance, posted from the demo external account as
 * deposits so the ledger balances.
 */
export async function createTraders(
  baseUrl: string,
  databaseUrl: string,
  prefix: string,
  count: number,
  fundings: Funding[],
): Promise<Trader[]> {
  const template = `${prefix}-template@example.com`;
  const first = await registerUser(baseUrl, template);
  const set = (await (
    await fetch(`${baseUrl}/api/v1/money-passwords`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${first.token}` },
      body: JSON.stringify({
        kind: 'trade',
        proof: 'login_password',
        loginPassword: BENCH_PASSWORD,
        password: TRADE_PIN,
        confirmPassword: TRADE_PIN,
      }),
    })
  ).json()) as { code: number; message: string };
  if (set.code !== 0) throw new Error(`trading password: ${set.message}`);
  const setup = new pg.Client({ connectionString: databaseUrl });
  await setup.connect();
  const { rows: created } = await setup.query<{ id: string }>(
    `insert into users (email, email_verified, verified, password_hash, nickname, invite_code, language, created_at, updated_at)
     select $2 || n || '@example.com', true, true, t.password_hash, $2 || n, upper(left($2, 1)) || lpad(n::text, 7, '0'), 'en', now(), now()
     from generate_series(1, $1::int) as n cross join (select password_hash from users where email = $3) t
     returning id::text`,
    [count, prefix, template],
  );
  await setup.query(
    `insert into money_passwords (user_id, kind, password_hash, created_at, updated_at)
     select u.id, 'trade', p.password_hash, now(), now()
     from unnest($1::bigint[]) as u(id)
     cross join (select password_hash from money_passwords where user_id = $2 and kind = 'trade') p`,
    [created.map((row) => row.id), first.uid],
  );
  const traders = created.map((row) => ({
    uid: Number(row.id),
    token: crypto.randomBytes(32).toString('base64url'),
  }));
  await setup.query(
    `insert into sessions (user_id, token_hash, device, ip, created_at, last_used_at, expires_at)
     select user_id, token_hash, 'bench', '127.0.0.1', now(), now(), now() + interval '1 day' from unnest($1::bigint[], $2::text[]) as s(user_id, token_hash)`,
    [traders.map((t) => String(t.uid)), traders.map((t) => hashToken(t.token))],
  );
  await setup.end();

  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  const ledger = new Ledger();
  for (let i = 0; i < traders.length; i += 500) {
    const chunk = traders.slice(i, i + 500);
    await database.db.transaction((tx) =>
      ledger.postMany(
        tx,
        new Date(),
        chunk.map((trader) => ({
          kind: 'bench_funding',
          reference: `bench:fund:${trader.uid}`,
          userId: trader.uid,
          postings: fundings.flatMap(({ wallet, asset, amountMinor }) => [
            {
              account: externalAccount('demo', asset),
              amount: -amountMinor,
              type: 'deposit' as const,
            },
            {
              account: userAccount(trader.uid, wallet, asset),
              amount: amountMinor,
              type: 'deposit' as const,
            },
          ]),
        })),
      ),
    );
  }
  await database.close();
  return traders;
}

/** Waits until the server's recorder has a fresh BTCUSDT tick: orders open on one. */
export async function waitForPrices(baseUrl: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const prices = (await (await fetch(`${baseUrl}/api/v1/market/prices`)).json()) as {
      data: { items: { instrument: string; price: string | null }[] };
    };
    if (prices.data.items.find((p) => p.instrument === 'BTCUSDT')?.price) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}
