// Every module that holds user funds locked, as the ledger check is handed them: app.ts (the
// dashboard's check, `npm run ops -- ledger:check`) and cli/check-ledger.ts. A plain list built
// from each module's export: the ledger imports no module above it, and a module left out
// here shows up at once as unexplained locks.
import type { Obligation } from './modules/ledger/invariants.ts';
import { contractOrdersObligation } from './modules/contracts/obligations.ts';
import { ieoApplicationsObligation } from './modules/ieo/obligations.ts';
import { withdrawalsObligation } from './modules/withdrawal/obligations.ts';

/** The list, refused if two obligations share a name. */
export function distinctObligations(...obligations: Obligation[]): readonly Obligation[] {
  const names = new Set<string>();
  for (const { name } of obligations) {
    // The same source twice would count its locks twice.
    if (names.has(name)) throw new Error(`two obligations are named ${name}`);
    names.add(name);
  }
  return Object.freeze(obligations);
}

export const LOCKED_FUND_OBLIGATIONS = distinctObligations(
  contractOrdersObligation,
  ieoApplicationsObligation,
  withdrawalsObligation,
);
