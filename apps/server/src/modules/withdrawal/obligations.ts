import type { Obligation } from '../ledger/invariants.ts';
import { withdrawalObligations } from './service.ts';

/** Pending and processing withdrawals hold amount + fee locked in the user's spot account. */
export const withdrawalsObligation: Obligation = {
  name: 'withdrawals',
  locked: withdrawalObligations,
};
