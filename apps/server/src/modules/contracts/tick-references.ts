import { type TickReference, tickReference } from '../market/tick-references.ts';

/** An order's ticks are its proof: tick retention never prunes them (the foreign keys say so too). */
export const contractTickReferences: readonly TickReference[] = [
  tickReference('contract_orders', 'open_tick_id'),
  tickReference('contract_orders', 'close_tick_id'),
];
