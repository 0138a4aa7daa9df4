import type { Obligation } from '../ledger/invariants.ts';
import { ieoObligations } from './service.ts';

/** Applications awaiting allocation hold their commitment locked in spot USDT. */
export const ieoApplicationsObligation: Obligation = {
  name: 'ieo_applications',
  locked: ieoObligations,
};
