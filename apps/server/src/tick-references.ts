// Every column a module declares as holding market tick ids, as the recorder's retention prune
// is handed them (app.ts): a plain list built from each module's export, not a registry that
// importing a module's routes fills as a side effect.
import { contractTickReferences } from './modules/contracts/tick-references.ts';
import type { TickReference } from './modules/market/tick-references.ts';

export const TICK_REFERENCES: readonly TickReference[] = Object.freeze([...contractTickReferences]);
