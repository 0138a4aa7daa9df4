// `npm run ops -- ledger:check`, which is also what `npm run check:ledger` asks a running server
// to do: on the embedded database only the process holding DATA_DIR may read the ledger.
import type { Executor } from '#platform/db.ts';
import { registerOpsCommand } from '../operator/ops-commands.ts';
import { checkLedger } from './invariants.ts';
import { registerLockedFundObligations } from './obligations.ts';

export const LEDGER_OK =
  'ledger ok: every entry balances, balances sum to zero per asset, cached balances equal postings, no user balance is negative, locked funds equal open obligations';

/** Checks the ledger; resolves with the report's lines and whether every invariant holds. */
export async function ledgerReport(db: Executor): Promise<{ ok: boolean; text: string }> {
  // Idempotent; a CLI process has not built the routes that register the obligations.
  registerLockedFundObligations();
  const violations = await checkLedger(db);
  if (violations.length === 0) return { ok: true, text: LEDGER_OK };
  return { ok: false, text: violations.map((violation) => `${violation.rule}: ${violation.detail}`).join('\n') };
}

registerOpsCommand('ledger:check', {
  usage: 'ledger:check  (the invariants `npm run check:ledger` checks; exits 1 on a violation)',
  needsOperator: false,
  async run({ db }) {
    const report = await ledgerReport(db);
    if (!report.ok) throw new Error(report.text);
    return report.text;
  },
});
