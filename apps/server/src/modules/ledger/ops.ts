// The ledger's report for `npm run check:ledger` and `npm run ops -- ledger:check` (the command
// itself is the operator module's: the ledger imports nothing above it). A running server is
// asked for it: on the embedded database only the process holding DATA_DIR may read the ledger.
import type { Executor } from '#platform/db.ts';
import { type Obligation, checkLedger } from './invariants.ts';

export const LEDGER_OK =
  'ledger ok: every entry balances, balances sum to zero per asset, cached balances equal postings, no user balance is negative, locked funds equal open obligations';

/** Checks the ledger against the modules' obligations; resolves with the report's lines and whether every invariant holds. */
export async function ledgerReport(
  db: Executor,
  obligations: readonly Obligation[],
): Promise<{ ok: boolean; text: string }> {
  const violations = await checkLedger(db, obligations);
  if (violations.length === 0) return { ok: true, text: LEDGER_OK };
  return {
    ok: false,
    text: violations.map((violation) => `${violation.rule}: ${violation.detail}`).join('\n'),
  };
}
