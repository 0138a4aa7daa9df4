import { openObligations } from '../contracts/service.ts';
import { ieoObligations } from '../ieo/service.ts';
import { withdrawalObligations } from '../withdrawal/service.ts';
import { registerObligation } from './invariants.ts';

/**
 * Registers every module that holds user funds locked with the ledger check (locked must
 * equal their sum). The server calls it when it builds the app; so must anything else that
 * runs `checkLedger` (the CLI, the benches), or open orders would read as unexplained locks.
 */
export function registerLockedFundObligations(): void {
  registerObligation('contract_orders', openObligations);
  registerObligation('withdrawals', withdrawalObligations);
  registerObligation('ieo_applications', ieoObligations);
}
