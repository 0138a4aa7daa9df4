import type { Obligation } from '../ledger/invariants.ts';
import { openObligations } from './service.ts';

/** Open orders hold their stake and fee locked in the futures account until they settle. */
export const contractOrdersObligation: Obligation = {
  name: 'contract_orders',
  locked: openObligations,
};
