// What every part of the server is handed: the app's services (app.ts builds them), also what
// an `npm run ops` command runs with. A file of its own so that modules can name the type
// without importing app.ts, which imports them.
import type { Obligation } from './modules/ledger/invariants.ts';
import type { Ledger } from './modules/ledger/service.ts';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import type { Database } from './platform/db.ts';
import type { FileStore } from './platform/files.ts';
import type { Metrics } from './platform/metrics.ts';
import type { Notifier } from './platform/notifier.ts';
import type { Relay } from './platform/relay.ts';
import type { Hub } from './platform/ws.ts';

export interface AppServices {
  config: Config;
  database: Database;
  clock: Clock;
  notifier: Notifier;
  relay: Relay;
  hub: Hub;
  ledger: Ledger;
  fileStore: FileStore;
  /** What users' locked funds must equal, every module's (src/obligations.ts): the ledger check's input. */
  obligations: readonly Obligation[];
  /** What this process counts and measures for Prometheus (platform/metrics.ts). */
  metrics: Metrics;
}
